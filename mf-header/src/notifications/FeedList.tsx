import type { ReactNode, UIEvent } from 'react';
import styled from 'styled-components';
import { Badge, Dropdown, SCROLL_LOAD_THRESHOLD, theme } from '@marketplace/shared';

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 4px 0;
  width: min(340px, calc(100vw - 24px));
  max-height: 360px;
  overflow-y: auto;
  > li {
    display: flex;
    align-items: flex-start;
    gap: 8px;
    padding: 8px 12px;
    border-bottom: 1px solid ${theme.colors.surface};
  }
  > li[data-status='NEW'],
  > li[data-status='UNREAD'] {
    background: #eef4fb;
  }
  > li[data-status='NEW'] .text,
  > li[data-status='UNREAD'] .text {
    font-weight: 600;
  }
  .entry {
    flex: 1;
    display: flex;
    gap: 8px;
    padding: 0;
    border: none;
    background: none;
    font: inherit;
    color: ${theme.colors.text};
    text-align: left;
    cursor: pointer;
    overflow-wrap: anywhere;
  }
  .empty,
  .loading {
    color: ${theme.colors.muted};
  }
`;

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
  isLoading: boolean;
  count: number;
  hasMore: boolean;
  loadMore: () => void;
  children: ReactNode;
}

/** A dropdown's list: its empty state, and the next page once scrolled to 90% of its height. */
export function FeedList({ label, empty, isLoading, count, hasMore, loadMore, children }: FeedListProps) {
  const onScroll = (e: UIEvent<HTMLUListElement>) => {
    if (hasMore && reachedLoadPoint(e.currentTarget)) loadMore();
  };
  return (
    <List aria-label={label} aria-busy={isLoading} onScroll={onScroll}>
      {isLoading && <li className="loading">Loading…</li>}
      {!isLoading && count === 0 && <li className="empty">{empty}</li>}
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

/** A header icon with its NEW-count badge ('10+' above 9) that opens a feed's list. */
export function FeedDropdown({ name, icon, newCount, onOpen, children }: FeedDropdownProps) {
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
