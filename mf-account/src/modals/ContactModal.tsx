import { useState, type FormEvent } from 'react';
import { apiCall, Button, CONTACT_MODAL_WIDTH_PX, Modal, TextField } from '@marketplace/shared';
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
          <TextField label="Name" name="name" autoComplete="name" required />
          <TextField label="Email" name="email" type="email" autoComplete="email" required />
          <TextField label="Subject" name="subject" required />
          <TextField label="Message" multiline name="message" rows={5} required />
          {state === 'incomplete' && <p role="alert">Please fill in every field.</p>}
          {state === 'failed' && <p role="alert">Email is invalid</p>}
          <Button variant="primary" type="submit" disabled={state === 'sending'}>
            Send
          </Button>
        </Form>
      )}
      <Button variant="ghost" onClick={onClose} style={{ marginTop: 12 }}>
        Close
      </Button>
    </Modal>
  );
}
