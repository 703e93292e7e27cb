import type { FormEvent, ReactNode } from 'react';
import styled from 'styled-components';
import { Button, Modal, theme } from '@marketplace/shared';

/** A row of buttons: the actions offered, a form's submit and back. */
export const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.sm};
  margin-top: ${theme.space.md};
`;

const Form = styled.form`
  display: grid;
  gap: ${theme.space.md};
`;

/** The dialog of an order action's form: its fields, the form's own error, submit and Back. */
export function FormModal({
  title,
  submit,
  busy,
  formError,
  onSubmit,
  onClose,
  children,
}: {
  title: string;
  submit: string;
  busy: boolean;
  formError: string | null;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Modal title={title} onClose={busy ? undefined : onClose} width={480}>
      <Form
        noValidate
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        {children}
        {formError && <p role="alert">{formError}</p>}
        <Row>
          <Button type="submit" variant="primary" disabled={busy}>
            {submit}
          </Button>
          <Button disabled={busy} onClick={onClose}>
            Back
          </Button>
        </Row>
      </Form>
    </Modal>
  );
}
