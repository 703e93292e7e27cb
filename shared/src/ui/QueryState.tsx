import type { ReactNode } from 'react';
import styled from 'styled-components';
import { EmptyState, Skeleton } from './Surface.js';

/** Text for screen readers only (the skeleton says "loading" to the eye). */
export const VisuallyHidden = styled.span`
  position: absolute;
  width: 1px;
  height: 1px;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
`;

export interface QueryStateProps {
  isLoading: boolean;
  error: unknown;
  /** What to say when loading failed: a text, or one made from the error (e.g. the API's reason). */
  errorText?: string | ((error: unknown) => string);
  /** The data arrived and holds nothing to show. */
  empty?: boolean;
  /** The empty state's title: the spec's text where it gives one. */
  emptyText?: string;
  /** What the user can do about an empty list. */
  emptyHint?: ReactNode;
  /** The shapes shown while loading, laid out like the content so nothing moves when it arrives. */
  skeleton?: ReactNode;
  children: ReactNode;
}

/** Three lines of text: the placeholder of a page whose shape is not known in advance. */
const DEFAULT_SKELETON = (
  <>
    <Skeleton width="40%" height={28} style={{ marginBottom: 16 }} />
    <Skeleton height={16} style={{ marginBottom: 8 }} />
    <Skeleton width="80%" height={16} />
  </>
);

/**
 * The one loading, error and empty state every remote's lists and pages use: the skeleton (and
 * a status saying "Loading…" to screen readers) while loading, an alert on failure, the empty
 * state, or the content.
 */
export function QueryState({ isLoading, error, errorText = 'This could not be loaded. Please try again.', empty = false, emptyText = '', emptyHint, skeleton, children }: QueryStateProps) {
  if (isLoading)
    return (
      <div role="status" aria-busy="true">
        <VisuallyHidden>Loading…</VisuallyHidden>
        {skeleton ?? DEFAULT_SKELETON}
      </div>
    );
  if (error) return <p role="alert">{typeof errorText === 'function' ? errorText(error) : errorText}</p>;
  if (empty) return <EmptyState title={emptyText}>{emptyHint}</EmptyState>;
  return <>{children}</>;
}
