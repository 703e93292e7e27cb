import { useId, useRef, useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { IconButton } from './Button.js';
import { theme } from './theme.js';
import { popupSurface } from './Surface.js';
import { useClickOutside } from './useClickOutside.js';
import { usePreparedStyles } from './usePreparedStyles.js';

const Wrap = styled.div`
  position: relative;
  display: inline-block;
`;

const Menu = styled.div`
  position: absolute;
  right: 0;
  top: calc(100% + 6px);
  min-width: 220px;
  ${popupSurface}
  z-index: 900;
  /* On a phone a menu opened from the middle of the header would run off the screen's left
     edge: it spans the screen instead, just under its toggle. */
  ${theme.mobile} {
    position: fixed;
    top: auto;
    left: 8px;
    right: 8px;
  }
`;

/** The open menu's styles, made while the page is idle rather than in the press that first opens one. */
const MENU_STYLES = <Menu />;

export interface DropdownProps {
  /** The toggle's accessible name. */
  label: string;
  /** What the toggle shows (an icon, a picture). */
  trigger: ReactNode;
  onOpen?: () => void;
  /** The menu's content; `close` closes it (after following an item). */
  children: (close: () => void) => ReactNode;
}

/** A toggle with a menu: Escape and a click elsewhere close it; the toggle says whether it is open. */
export function Dropdown({ label, trigger, onOpen, children }: DropdownProps) {
  const [open, setOpen] = useState(false);
  const wrap = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useClickOutside(wrap, open, () => setOpen(false));
  usePreparedStyles(MENU_STYLES);

  const toggle = () => {
    if (!open) onOpen?.();
    setOpen(!open);
  };

  return (
    <Wrap
      ref={wrap}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          setOpen(false);
          wrap.current?.querySelector<HTMLButtonElement>('button')?.focus();
        }
      }}
    >
      <IconButton
        label={label}
        size={40}
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={toggle}
      >
        {trigger}
      </IconButton>
      {open && <Menu id={menuId}>{children(() => setOpen(false))}</Menu>}
    </Wrap>
  );
}
