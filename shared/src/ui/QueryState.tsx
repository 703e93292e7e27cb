import type { ReactNode } from 'react';

export interface QueryStateProps {
  isLoading: boolean;
  error: unknown;
  /** What to say when loading failed: a text, or one made from the error (e.g. the API's reason). */
  errorText?: string | ((error: unknown) => string);
  /** The data arrived and holds nothing to show. */
  empty?: boolean;
  emptyText?: string;
  children: ReactNode;
}

/**
 * The one loading, error and empty state every remote's lists and pages use: a polite status
 * while loading, an alert on failure, the empty text, or the content.
 */
export function QueryState({ isLoading, error, errorText = 'This could not be loaded. Please try again.', empty = false, emptyText = '', children }: QueryStateProps) {
  if (isLoading) return <p role="status">Loading…</p>;
  if (error) return <p role="alert">{typeof errorText === 'function' ? errorText(error) : errorText}</p>;
  if (empty) return <p>{emptyText}</p>;
  return <>{children}</>;
}
