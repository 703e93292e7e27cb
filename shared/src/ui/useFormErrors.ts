import { useState } from 'react';
import { ApiError } from '../api/client.js';

/** A form's errors by field. */
export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/**
 * A form's errors, each beside its field (TextField's `error`): all that a check before sending
 * found at once, or the server's reason beside the field it names; a reason about no field of the
 * form (or a failure that is not the API's) is the form's own, shown under it (`formError`).
 */
export function useFormErrors<F extends string>(fields: readonly F[]) {
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const isField = (field: string | undefined): field is F => fields.includes(field as F);
  return {
    errorOf: (field: F): string | undefined => errors[field],
    formError,
    /** Shows these errors (what a check before sending found: all of it) and clears the rest: true when there are none. */
    show(found: FieldErrors<F>): boolean {
      setErrors(found);
      setFormError(null);
      return Object.values(found).every((message) => !message);
    },
    /** Shows why sending failed. */
    fail(error: unknown, fallback = 'That did not work: try again'): void {
      if (error instanceof ApiError && isField(error.field)) {
        setErrors({ [error.field]: error.message } as FieldErrors<F>);
        setFormError(null);
      } else {
        setErrors({});
        setFormError(error instanceof ApiError ? error.message : fallback);
      }
    },
  };
}
