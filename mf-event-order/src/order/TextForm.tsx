import { useState } from 'react';
import { TextField } from '@marketplace/shared';
import type { OrderChange } from './useOrderActions.js';
import { FormModal } from './FormModal.js';
import { useSend, type FormField } from './useSend.js';

/** A form of one text: the request for requirements, the answer, the reason to decline. */
export function TextForm({
  title,
  label,
  submit,
  toChange,
  field,
  onChange,
  onClose,
}: {
  title: string;
  label: string;
  submit: string;
  toChange: (text: string) => OrderChange;
  field: FormField;
  onChange: (change: OrderChange) => Promise<void>;
  onClose: () => void;
}) {
  const [text, setText] = useState('');
  const { busy, send, errorOf, formError, show } = useSend(onChange, onClose);
  return (
    <FormModal
      title={title}
      submit={submit}
      busy={busy}
      formError={formError}
      onClose={onClose}
      onSubmit={() => (text.trim() ? void send(toChange(text)) : show({ [field]: 'Write something first' }))}
    >
      <TextField
        multiline
        rows={4}
        label={label}
        value={text}
        maxLength={1000}
        onChange={(e) => setText(e.target.value)}
        error={errorOf(field)}
      />
    </FormModal>
  );
}
