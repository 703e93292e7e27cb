import { useState, type FormEvent } from 'react';
import { apiCall, CONTACT_MODAL_WIDTH_PX, Modal } from '@marketplace/shared';
import { Form, formFields } from '../ui.js';

const FIELDS = ['name', 'email', 'subject', 'message'] as const;

/** SPEC.md section 5 and 8: all fields required; sent without credentials; 'Email is invalid' when the call fails. */
export function ContactModal({ onClose }: { onClose: () => void }) {
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed' | 'incomplete'>('idle');
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = formFields(event.currentTarget, FIELDS);
    if (FIELDS.some((f) => !values[f])) {
      setState('incomplete');
      return;
    }
    setState('sending');
    try {
      await apiCall('submitContactInfo', values);
      setState('sent');
    } catch {
      setState('failed');
    }
  };
  return (
    <Modal title="Contact Us" onClose={onClose} width={CONTACT_MODAL_WIDTH_PX}>
      {state === 'sent' ? (
        <p role="status">We have received your message, thank you</p>
      ) : (
        <Form onSubmit={(e) => void submit(e)} noValidate>
          <label>
            Name
            <input name="name" required />
          </label>
          <label>
            Email
            <input name="email" type="email" required />
          </label>
          <label>
            Subject
            <input name="subject" required />
          </label>
          <label>
            Message
            <textarea name="message" rows={5} required />
          </label>
          {state === 'incomplete' && <p role="alert">Please fill in every field.</p>}
          {state === 'failed' && <p role="alert">Email is invalid</p>}
          <button type="submit" disabled={state === 'sending'}>
            Send
          </button>
        </Form>
      )}
      <button type="button" onClick={onClose}>
        Close
      </button>
    </Modal>
  );
}
