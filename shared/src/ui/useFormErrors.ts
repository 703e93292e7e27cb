import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../api/client.js';

/** A form's errors by field. */
export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/**
 * A form's errors, each beside its field (TextField's `error`): all that a check before sending
 * found at once, or the server's reason beside the field it names; a reason about no field of the
 * form (or a failure that is not the API's) is the form's own, shown under it (`formError`).
 * Given the form (`formRef`), the first field shown invalid takes the focus each time errors are
 * shown: a field's error is not announced by itself, the field is read with it when focused.
 */
export function useFormErrors<F extends string>(fields: readonly F[]) {
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  const [formError, setFormError] = useState<string | null>(null);
  // Counts the times errors were shown, so showing the same ones again moves the focus again.
  const [shown, setShown] = useState(0);
  const formRef = useRef<HTMLFormElement | null>(null);
  useEffect(() => {
    // After the render that marked the fields: the first one in the page's order, not the list's.
    if (shown) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [shown]);
  const isField = (field: string | undefined): field is F => fields.includes(field as F);
  return {
    errorOf: (field: F): string | undefined => errors[field],
    formError,
    /** The form, for focusing its first invalid field. */
    formRef,
    /** Shows these errors (what a check before sending found: all of it) and clears the rest: true when there are none. */
    show(found: FieldErrors<F>): boolean {
      const valid = Object.values(found).every((message) => !message);
      setErrors(found);
      setFormError(null);
      if (!valid) setShown((n) => n + 1);
      return valid;
    },
    /** Shows why sending failed. */
    fail(error: unknown, fallback = 'That did not work: try again'): void {
      if (error instanceof ApiError && isField(error.field)) {
        setErrors({ [error.field]: error.message } as FieldErrors<F>);
        setFormError(null);
        setShown((n) => n + 1);
      } else {
        setErrors({});
        setFormError(error instanceof ApiError ? error.message : fallback);
      }
    },
  };
}
