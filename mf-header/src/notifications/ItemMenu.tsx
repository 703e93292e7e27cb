import { useEffect, useId, useRef, useState } from 'react';
import styled from 'styled-components';
import { popupSurface, theme, useClickOutside } from '@marketplace/shared';

const Wrap = styled.div`
  position: relative;
  > button {
    border: none;
    background: none;
    padding: 0 4px;
    font-size: 18px;
    line-height: 1;
    cursor: pointer;
    color: ${theme.colors.muted};
  }
  [role='menu'] {
    position: absolute;
    right: 0;
    top: 100%;
    min-width: 180px;
    margin: 0;
    padding: 4px 0;
    list-style: none;
    ${popupSurface}
    z-index: 1;
  }
  [role='menuitem'] {
    display: block;
    width: 100%;
    padding: 6px 12px;
    border: none;
    background: none;
    font: inherit;
    text-align: left;
    cursor: pointer;
  }
  [role='menuitem']:hover,
  [role='menuitem']:focus {
    background: ${theme.colors.surface};
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
      <button type="button" aria-label={label} aria-haspopup="menu" aria-expanded={open} aria-controls={menuId} onClick={() => setOpen(!open)}>
        ⋯
      </button>
      {open && (
        <ul role="menu" id={menuId} aria-label={label}>
          {actions.map((a) => (
            <li key={a.label} role="none">
              <button
                type="button"
                role="menuitem"
                onClick={() => {
                  setOpen(false);
                  a.run();
                }}
              >
                {a.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </Wrap>
  );
}
