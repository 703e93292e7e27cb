import { useState, type FormEvent } from 'react';
import {
  apiCall,
  ApiError,
  Button,
  CONTACT_MODAL_WIDTH_PX,
  Modal,
  TextField,
  useFormErrors,
  type FieldErrors,
  looksLikeEmail,
} from '@marketplace/shared';
import { Form, formFields } from '../ui.js';

const FIELDS = ['name', 'email', 'subject', 'message'] as const;
type Field = (typeof FIELDS)[number];

const MISSING: Record<Field, string> = {
  name: 'Enter your name',
  email: 'Enter your email',
  subject: 'Enter a subject',
  message: 'Write your message',
};

/** SPEC.md section 5 and 8: all fields required; sent without credentials; 'Email is invalid' for a refused email. */
export function ContactModal({ onClose }: { onClose: () => void }) {
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const { errorOf, formError, formRef, show, fail } = useFormErrors(FIELDS);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = formFields(event.currentTarget, FIELDS);
    const found: FieldErrors<Field> = Object.fromEntries(FIELDS.filter((f) => !values[f]).map((f) => [f, MISSING[f]]));
    if (values.email && !looksLikeEmail(values.email)) found.email = 'Email is invalid';
    if (!show(found)) return;
    setState('sending');
    try {
      await apiCall('submitContactInfo', values);
      setState('sent');
    } catch (error) {
      // SPEC.md section 8: a failed submit says 'Email is invalid', beside the email when the API
      // names it, else in the form's alert; the API's reason about another field goes beside it.
      const field = error instanceof ApiError ? error.field : undefined;
      if (field === 'email') show({ email: 'Email is invalid' });
      else if (FIELDS.includes(field as Field)) fail(error);
      else fail(null, 'Email is invalid');
      setState('idle');
    }
  };
  return (
    <Modal title="Contact Us" onClose={onClose} width={CONTACT_MODAL_WIDTH_PX}>
      {state === 'sent' ? (
        <p role="status">We have received your message, thank you</p>
      ) : (
        <Form ref={formRef} onSubmit={(e) => void submit(e)} noValidate>
          <TextField label="Name" name="name" autoComplete="name" maxLength={100} error={errorOf('name')} required />
          <TextField label="Email" name="email" type="email" autoComplete="email" error={errorOf('email')} required />
          <TextField label="Subject" name="subject" maxLength={200} error={errorOf('subject')} required />
          <TextField
            label="Message"
            multiline
            name="message"
            rows={5}
            maxLength={5000}
            error={errorOf('message')}
            required
          />
          {formError && <p role="alert">{formError}</p>}
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
