import type { ReactNode } from 'react';
import { statusOf } from '../api/client.js';
import { NotAllowedState } from './NotAllowedState.js';
import { NotFoundState } from './NotFoundState.js';
import { EmptyState, PageSkeleton, VisuallyHidden } from './Surface.js';

export interface QueryStateProps {
  isLoading: boolean;
  error: unknown;
  /**
   * A page about one thing (an event, a profile): what to say when the API answers that it does
   * not exist (404). The page then shows the not-found state with a way back instead of a retry.
   */
  notFoundText?: string;
  /** What to say when loading failed: a text, or one made from the error (e.g. the API's reason). */
  errorText?: string | ((error: unknown) => string);
  /** The data arrived and holds nothing to show. */
  empty?: boolean;
  /** The empty state's title: the spec's text where it gives one. */
  emptyText?: string;
  /** What the user can do about an empty list. */
  emptyHint?: ReactNode;
  /** The empty state's symbol. */
  emptyIcon?: ReactNode;
  /** The shapes shown while loading, laid out like the content so nothing moves when it arrives. */
  skeleton?: ReactNode;
  children: ReactNode;
}

/**
 * The one loading, error and empty state every remote's lists and pages use: the skeleton (and
 * a status saying "Loading…" to screen readers) while loading, the not-found state for a thing
 * that does not exist, an alert on failure (with a way to log in when the data was refused to this
 * visitor), the empty state, or the content.
 */
export function QueryState({
  isLoading,
  error,
  notFoundText,
  errorText = 'This could not be loaded. Please try again.',
  empty = false,
  emptyText = '',
  emptyHint,
  emptyIcon,
  skeleton,
  children,
}: QueryStateProps) {
  if (isLoading)
    return (
      <div role="status" aria-busy="true">
        <VisuallyHidden>Loading…</VisuallyHidden>
        {skeleton ?? <PageSkeleton />}
      </div>
    );
  if (notFoundText !== undefined && statusOf(error) === 404) return <NotFoundState text={notFoundText} />;
  if (error) {
    const text = typeof errorText === 'function' ? errorText(error) : errorText;
    // Refused to this visitor (not logged in, or not theirs): a way in beside the reason.
    return [401, 403].includes(statusOf(error)) ? <NotAllowedState text={text} /> : <p role="alert">{text}</p>;
  }
  if (empty)
    return (
      <EmptyState title={emptyText} icon={emptyIcon}>
        {emptyHint}
      </EmptyState>
    );
  return <>{children}</>;
}
