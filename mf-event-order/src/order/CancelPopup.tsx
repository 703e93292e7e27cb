import { useState } from 'react';
import { Button, Modal } from '@marketplace/shared';
import { messageOf } from '@marketplace/shared/errors';

/** SPEC.md section 4 "Cancel flow": a confirmation popup; page scrolling is locked while it is open. */
export function CancelPopup({ onConfirm, onClose }: { onConfirm: () => Promise<void>; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Modal title="Are you sure you want to cancel this order?" onClose={busy ? undefined : onClose} width={440}>
      {error && <p role="alert">{error}</p>}
      <div style={{ display: 'flex', gap: 12 }}>
        <Button
          variant="primary"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            onConfirm().then(onClose, (e: unknown) => {
              setError(messageOf(e, 'The order could not be cancelled'));
              setBusy(false);
            });
          }}
        >
          Yes, cancel the order
        </Button>
        <Button disabled={busy} onClick={onClose}>
          No, do not cancel
        </Button>
      </div>
    </Modal>
  );
}
