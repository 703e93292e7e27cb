import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.js';
import { TextField } from './Field.js';
import { useFormErrors, type FieldErrors } from './useFormErrors.js';

type Field = 'first' | 'second';
// The list names the fields in another order than the page: the page's order decides the focus.
const FIELDS = ['second', 'first'] as const;

let form!: ReturnType<typeof useFormErrors<Field>>;
function Probe() {
  form = useFormErrors<Field>(FIELDS);
  return (
    <form ref={form.formRef} noValidate>
      <TextField label="First" error={form.errorOf('first')} />
      <TextField label="Second" error={form.errorOf('second')} />
      {form.formError && <p role="alert">{form.formError}</p>}
      <button type="button">Send</button>
    </form>
  );
}

const show = (found: FieldErrors<Field>) => {
  let valid = false;
  act(() => void (valid = form.show(found)));
  return valid;
};

describe('useFormErrors', () => {
  it('shows every error beside its field and focuses the first in the page, each time errors are shown', async () => {
    render(<Probe />);
    expect(show({ first: 'One', second: 'Two' })).toBe(false);
    expect(screen.getByLabelText('First')).toHaveAccessibleDescription('One');
    expect(screen.getByLabelText('Second')).toHaveAccessibleDescription('Two');
    expect(screen.getByLabelText('First')).toHaveFocus();
    // The same errors again: the focus comes back to the first.
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    show({ first: 'One', second: 'Two' });
    expect(screen.getByLabelText('First')).toHaveFocus();
  });

  it('moves no focus when there is nothing to show', async () => {
    render(<Probe />);
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(show({ first: undefined })).toBe(true);
    expect(screen.getByRole('button', { name: 'Send' })).toHaveFocus();
  });

  it("puts the API's reason beside the field it names and focuses it, or in the form's alert", async () => {
    render(<Probe />);
    act(() => form.fail(new ApiError(409, 'Taken', 'second')));
    expect(screen.getByLabelText('Second')).toHaveAccessibleDescription('Taken');
    expect(screen.getByLabelText('Second')).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    act(() => form.fail(new ApiError(429, 'Slow down')));
    expect(screen.getByRole('alert')).toHaveTextContent('Slow down');
    expect(screen.getByLabelText('Second')).not.toHaveAttribute('aria-invalid');
    expect(screen.getByRole('button', { name: 'Send' })).toHaveFocus();
    act(() => form.fail(new Error('network'), 'Try again'));
    expect(screen.getByRole('alert')).toHaveTextContent('Try again');
  });
});
