import type { ReactNode, UIEvent } from 'react';
import styled from 'styled-components';
import {
  Badge,
  Dropdown,
  EmptyState,
  SCROLL_LOAD_THRESHOLD,
  Skeleton,
  theme,
  usePreparedStyles,
  VisuallyHidden,
} from '@marketplace/shared';

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 4px 0;
  width: 340px;
  ${theme.mobile} {
    width: auto;
  }
  max-height: 360px;
  overflow-y: auto;
  > li {
    display: flex;
    align-items: flex-start;
    gap: 8px;
    padding: ${theme.space.sm} ${theme.space.md};
    border-bottom: 1px solid ${theme.colors.surface};
  }
  > li[data-status='NEW'],
  > li[data-status='UNREAD'] {
    background: ${theme.colors.highlight};
  }
  > li[data-status='NEW'] .text,
  > li[data-status='UNREAD'] .text {
    font-weight: 600;
  }
  .body {
    flex: 1;
    min-width: 0;
  }
  /* The time sits under the text, lined up with it (past the picture in the messages list). */
  .body > time {
    display: block;
    margin-top: 2px;
  }
  .body > .entry:has(img) + time {
    padding-left: 36px;
  }
  .entry {
    width: 100%;
    display: flex;
    gap: ${theme.space.sm};
    color: ${theme.colors.text};
    overflow-wrap: anywhere;
  }
  > li.placeholder {
    display: block;
    border: none;
  }
`;

/** The rows' shapes while the first page loads: a picture's place, a line of text and a time. */
const LOADING_ROWS = [0, 1, 2].map((i) => (
  <li key={`loading-${i}`} aria-hidden="true">
    <Skeleton shape="circle" width={28} height={28} />
    <span style={{ flex: 1 }}>
      <Skeleton width="85%" height={14} style={{ marginBottom: 6 }} />
      <Skeleton width="30%" height={12} />
    </span>
  </li>
));

const Icon = styled.span`
  position: relative;
  display: inline-flex;
  font-size: 20px;
`;

/** Whether a list scrolled this far should load its next page (SPEC.md section 5: at 90%). */
export function reachedLoadPoint(el: Pick<HTMLElement, 'scrollTop' | 'clientHeight' | 'scrollHeight'>): boolean {
  return el.scrollTop + el.clientHeight >= el.scrollHeight * SCROLL_LOAD_THRESHOLD;
}

interface FeedListProps {
  label: string;
  empty: string;
  /** The empty state's symbol. */
  emptyIcon?: ReactNode;
  isLoading: boolean;
  count: number;
  hasMore: boolean;
  loadMore: () => void;
  children: ReactNode;
}

/** A dropdown's list: its empty state, and the next page once scrolled to 90% of its height. */
export function FeedList({ label, empty, emptyIcon, isLoading, count, hasMore, loadMore, children }: FeedListProps) {
  const onScroll = (e: UIEvent<HTMLUListElement>) => {
    if (hasMore && reachedLoadPoint(e.currentTarget)) loadMore();
  };
  return (
    <List aria-label={label} aria-busy={isLoading} onScroll={onScroll}>
      {isLoading && (
        <li className="placeholder">
          <VisuallyHidden>Loading…</VisuallyHidden>
        </li>
      )}
      {isLoading && LOADING_ROWS}
      {!isLoading && count === 0 && (
        <li className="placeholder">
          <EmptyState title={empty} icon={emptyIcon} />
        </li>
      )}
      {children}
    </List>
  );
}

interface FeedDropdownProps {
  /** 'Notifications' or 'Messages': the toggle reads "Notifications, 2 new". */
  name: string;
  icon: ReactNode;
  newCount: number;
  onOpen: () => void;
  children: (close: () => void) => ReactNode;
}

/**
 * What an open list shows first (its loading rows, or its empty state), made while the page is
 * idle: the press that first opens a dropdown then only paints it.
 */
const LIST_STYLES = (
  <List>
    <li className="placeholder">
      <VisuallyHidden />
      <EmptyState title="" />
    </li>
    {LOADING_ROWS}
  </List>
);

/** A header icon with its NEW-count badge ('10+' above 9) that opens a feed's list. */
export function FeedDropdown({ name, icon, newCount, onOpen, children }: FeedDropdownProps) {
  usePreparedStyles(LIST_STYLES);
  return (
    <Dropdown
      label={`${name}, ${newCount} new`}
      onOpen={onOpen}
      trigger={
        <Icon>
          {icon}
          <Badge count={newCount} label={`new ${name.toLowerCase()}`} />
        </Icon>
      }
    >
      {children}
    </Dropdown>
  );
}
