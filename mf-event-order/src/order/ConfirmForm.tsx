import type { OrderChange } from './useOrderActions.js';
import { FormModal } from './FormModal.js';
import { useSend } from './useSend.js';

/** A change with nothing to fill in, confirmed first: approving a quote, delivering. */
export function ConfirmForm({
  title,
  text,
  submit,
  change,
  onChange,
  onClose,
}: {
  title: string;
  text: string;
  submit: string;
  change: OrderChange;
  onChange: (change: OrderChange) => Promise<void>;
  onClose: () => void;
}) {
  const { busy, send, formError } = useSend(onChange, onClose);
  return (
    <FormModal
      title={title}
      submit={submit}
      busy={busy}
      formError={formError}
      onClose={onClose}
      onSubmit={() => void send(change)}
    >
      <p>{text}</p>
    </FormModal>
  );
}
