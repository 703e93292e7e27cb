import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { Button, callKey, Modal, theme, type CallName } from '@marketplace/shared';
import { messageOf } from '@marketplace/shared/errors';

/** After a change: the list asks the API again. */
export function useRefreshList(call: CallName) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: callKey(call) });
}

export const Actions = styled.div`
  display: flex;
  gap: ${theme.space.md};
  flex-wrap: wrap;
`;

export const OfferList = styled.ul`
  list-style: none;
  padding: 0;
  margin: ${theme.space.lg} 0 0;
  > li {
    display: grid;
    gap: ${theme.space.xs};
    padding: ${theme.space.md} 0;
    border-bottom: 1px solid ${theme.colors.border};
  }
  .muted {
    color: ${theme.colors.muted};
  }
  .state {
    font-size: ${theme.text.small};
    font-weight: 600;
    color: ${theme.colors.muted};
  }
`;

/** A row's Edit, and Withdraw while it is offered; `more` for another action in its place. */
export function RowActions({
  name,
  onEdit,
  onWithdraw,
  more,
}: {
  name: string;
  onEdit: () => void;
  /** Absent when the row is withdrawn already. */
  onWithdraw?: (() => void) | undefined;
  more?: ReactNode;
}) {
  return (
    <Actions>
      <Button variant="ghost" size="small" aria-label={`Edit ${name}`} onClick={onEdit}>
        Edit
      </Button>
      {onWithdraw && (
        <Button variant="ghost" size="small" aria-label={`Withdraw ${name}`} onClick={onWithdraw}>
          Withdraw
        </Button>
      )}
      {more}
    </Actions>
  );
}

/** Asks before withdrawing `name`; the server's reason shows when it refuses. */
export function ConfirmWithdraw({
  title,
  children,
  onConfirm,
  onClose,
}: {
  title: string;
  children: ReactNode;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      onClose();
    } catch (e) {
      setError(messageOf(e, 'Withdrawing failed: try again'));
      setBusy(false);
    }
  };
  return (
    <Modal title={title} onClose={busy ? undefined : onClose} width={440}>
      <p>{children}</p>
      {error && <p role="alert">{error}</p>}
      <Actions>
        <Button variant="primary" disabled={busy} onClick={() => void confirm()}>
          Withdraw
        </Button>
        <Button disabled={busy} onClick={onClose}>
          Keep it
        </Button>
      </Actions>
    </Modal>
  );
}
