import { useId, useRef, type ReactNode } from 'react';
import styled from 'styled-components';
import { theme } from './theme.js';
import { useDialogFocus } from './useDialogFocus.js';
import { useScrollLock } from './useScrollLock.js';

const Backdrop = styled.div<{ $side: boolean }>`
  position: fixed;
  inset: 0;
  background: ${theme.colors.backdrop};
  display: flex;
  align-items: ${(p) => (p.$side ? 'stretch' : 'center')};
  justify-content: ${(p) => (p.$side ? 'flex-start' : 'center')};
  z-index: 1000;
`;

const Panel = styled.div<{ $width: number; $side: boolean }>`
  background: ${theme.colors.background};
  border-radius: ${(p) => (p.$side ? '0' : theme.radius)};
  padding: 24px;
  width: min(${(p) => p.$width}px, calc(100vw - ${(p) => (p.$side ? 48 : 32)}px));
  max-height: ${(p) => (p.$side ? 'none' : 'calc(100vh - 32px)')};
  overflow: auto;
  font-family: ${theme.font};
`;

export interface ModalProps {
  title: string;
  /** Omit for a mandatory modal: no Escape, no backdrop click. */
  onClose?: () => void;
  width?: number;
  /** 'left': a full-height side panel (a navigation drawer) instead of a centred box. */
  placement?: 'center' | 'left';
  children: ReactNode;
}

/**
 * A dialog that locks page scrolling while open (SPEC.md section 2), moves focus in, keeps Tab
 * inside, and returns focus where it was when it closes.
 */
export function Modal({ title, onClose, width = 500, placement = 'center', children }: ModalProps) {
  const side = placement === 'left';
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  useScrollLock();

  const trapTab = useDialogFocus(panel);

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'Escape' && onClose) {
      event.stopPropagation();
      onClose();
      return;
    }
    trapTab(event);
  };

  return (
    <Backdrop $side={side} onMouseDown={(e) => e.target === e.currentTarget && onClose?.()}>
      <Panel
        ref={panel}
        $width={width}
        $side={side}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId}>{title}</h2>
        {children}
      </Panel>
    </Backdrop>
  );
}
