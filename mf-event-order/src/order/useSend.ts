import { useState } from 'react';
import { useFormErrors } from '@marketplace/shared';
import type { OrderChange } from './useOrderActions.js';

/** The fields of the order's forms: a reason about any other (the order, the action) is the form's. */
const FORM_FIELDS = [
  'message',
  'answer',
  'reason',
  'packagePriceCents',
  'discountCents',
  'extrasCents',
  'extrasNote',
] as const;
export type FormField = (typeof FORM_FIELDS)[number];

/** Sends a change once at a time and keeps its failure for the form to show. */
export function useSend(onChange: (change: OrderChange) => Promise<void>, onDone: () => void) {
  const [busy, setBusy] = useState(false);
  const { errorOf, formError, show, fail } = useFormErrors(FORM_FIELDS);
  const send = async (change: OrderChange) => {
    setBusy(true);
    show({});
    try {
      await onChange(change);
      onDone();
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };
  return { busy, send, errorOf, formError, show };
}
