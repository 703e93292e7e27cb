import { useEffect, useId, useRef, useState } from 'react';
import styled from 'styled-components';
import { IconButton, MenuItem, MenuList, popupSurface, useClickOutside } from '@marketplace/shared';

const Wrap = styled.div`
  position: relative;
  [role='menu'] {
    position: absolute;
    right: 0;
    top: 100%;
    min-width: 180px;
    ${popupSurface}
    z-index: 1;
  }
`;

export interface ItemAction {
  label: string;
  run: () => void;
}

/**
 * One notification's own menu (SPEC.md section 2). Arrow keys move between its actions; Escape
 * closes only this menu, not the dropdown around it.
 */
export function ItemMenu({ label, actions }: { label: string; actions: ItemAction[] }) {
  const [open, setOpen] = useState(false);
  const wrap = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useClickOutside(wrap, open, () => setOpen(false));
  useEffect(() => {
    if (open) wrap.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (!open) return;
    if (e.key === 'Escape') {
      e.stopPropagation();
      setOpen(false);
      wrap.current?.querySelector<HTMLElement>('button')?.focus();
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const items = [...(wrap.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
      const at = items.indexOf(document.activeElement as HTMLElement);
      const next = (at + (e.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length;
      items[next]?.focus();
    }
  };

  return (
    <Wrap ref={wrap} onKeyDown={onKeyDown}>
      <IconButton
        label={label}
        size={28}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen(!open)}
      >
        ⋯
      </IconButton>
      {open && (
        <MenuList role="menu" id={menuId} aria-label={label}>
          {actions.map((a) => (
            <li key={a.label} role="none">
              <MenuItem
                role="menuitem"
                onClick={() => {
                  setOpen(false);
                  a.run();
                }}
              >
                {a.label}
              </MenuItem>
            </li>
          ))}
        </MenuList>
      )}
    </Wrap>
  );
}
