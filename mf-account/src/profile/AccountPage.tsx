import type { ReactNode } from 'react';
import { Link, PageLayout, PAGES, QueryState, Skeleton, statusOf, useSession } from '@marketplace/shared';
import { messageOf } from '@marketplace/shared/errors';

/** The API's reason (e.g. the role a page needs) is what the user needs to read. */
const reason = (error: unknown) => messageOf(error, 'This could not be loaded.');

/** Four rows of a list, the shape of every account page's content while it loads. */
const LIST_SKELETON = [0, 1, 2, 3].map((i) => (
  <Skeleton key={i} width={i % 2 ? '65%' : '85%'} height={18} style={{ margin: '16px 0' }} />
));

interface AccountPageProps {
  title: string;
  state: { isLoading: boolean; error: unknown };
  /** The loaded list is empty: what the empty state says, and what to do about it. */
  empty?: { when: boolean; title: string; hint?: ReactNode };
  /** A page about one thing (a receipt): what to say when the API answers that it does not exist. */
  notFoundText?: string;
  /** The column: narrow for lists (the default), wide for a grid or tables. */
  width?: 'narrow' | 'wide';
  children: ReactNode;
}

/** A page that needs a session: visitors are pointed to log in; failures show the API's reason (e.g. the role a page needs). */
export function AccountPage({ title, state, empty, notFoundText, width = 'narrow', children }: AccountPageProps) {
  const isLoggedIn = useSession((s) => s.isLoggedIn);
  // The not-found state has its own heading ("Page not found").
  const notFound = notFoundText !== undefined && statusOf(state.error) === 404;
  return (
    <PageLayout width={width}>
      {!notFound && <h1>{title}</h1>}
      {isLoggedIn ? (
        <QueryState
          isLoading={state.isLoading}
          error={state.error}
          errorText={reason}
          notFoundText={notFoundText}
          skeleton={LIST_SKELETON}
          empty={empty?.when}
          emptyText={empty?.title}
          emptyHint={empty?.hint}
        >
          {children}
        </QueryState>
      ) : (
        <p>
          Please <Link to={PAGES.login.href()}>log in</Link> to see this page.
        </p>
      )}
    </PageLayout>
  );
}
