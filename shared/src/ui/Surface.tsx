import type { CSSProperties, ReactNode } from 'react';
import styled, { css, keyframes } from 'styled-components';
import { focusRing } from './Button.js';
import { theme } from './theme.js';

/** A bordered block of content: a gallery card, an order panel, a cart row. */
export const Card = styled.section`
  background: ${theme.colors.background};
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radius};
  box-shadow: ${theme.shadow.raised};
  padding: ${theme.space.lg};
  > h2:first-child,
  > h3:first-child {
    margin-top: 0;
    font-size: ${theme.text.large};
  }
`;

/**
 * The look of everything that opens over the page from a control: dropdowns, search results,
 * menus. (Dialogs are `Modal`.)
 */
export const popupSurface = css`
  background: ${theme.colors.background};
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radius};
  box-shadow: ${theme.shadow.popup};
`;

/** One entry of a menu (a link or a button): full width, highlighted under the pointer and the keyboard. */
const menuItem = css`
  display: block;
  width: 100%;
  padding: ${theme.space.sm} ${theme.space.md};
  border: none;
  background: none;
  font: inherit;
  color: ${theme.colors.text};
  text-align: left;
  text-decoration: none;
  cursor: pointer;
  ${focusRing}
  &:focus-visible {
    outline-offset: -2px;
  }
  &:hover,
  &:focus-visible {
    background: ${theme.colors.surface};
  }
  &:active {
    background: ${theme.colors.surfaceHover};
  }
`;

/** A menu entry that acts (Logout, Mark as read); entries that go somewhere are links in a MenuList. */
export const MenuItem = styled.button.attrs((p) => ({ type: p.type ?? 'button' }))`
  ${menuItem}
`;

/** A list of menu entries (`li > a`, or `li > MenuItem`), for a Dropdown's content. */
export const MenuList = styled.ul`
  list-style: none;
  margin: 0;
  padding: ${theme.space.xs} 0;
  li > a {
    ${menuItem}
  }
`;

const shimmer = keyframes`
  from { background-position: 100% 0; }
  to { background-position: -100% 0; }
`;

const Block = styled.span`
  display: block;
  background: linear-gradient(
    90deg,
    ${theme.colors.skeleton} 30%,
    ${theme.colors.surface} 50%,
    ${theme.colors.skeleton} 70%
  );
  background-size: 200% 100%;
  animation: ${shimmer} 1.4s linear infinite;
  @media (prefers-reduced-motion: reduce) {
    animation: none;
  }
`;

export interface SkeletonProps {
  /** CSS width (px as a number); the full width by default. */
  width?: number | string;
  /** CSS height; one line of body text by default. */
  height?: number | string;
  /** 'circle' for an avatar's place. */
  shape?: 'line' | 'block' | 'circle';
  style?: CSSProperties;
}

/**
 * The grey shape of something still loading, sized like what will replace it so nothing moves
 * when it arrives. Hidden from screen readers: the region around it says it is busy.
 */
export function Skeleton({ width = '100%', height = '1em', shape = 'line', style }: SkeletonProps) {
  const radius = shape === 'circle' ? '50%' : shape === 'block' ? theme.radius : '4px';
  return <Block aria-hidden="true" data-skeleton="" style={{ width, height, borderRadius: radius, ...style }} />;
}

/** A page title's place (an h1: 32 px with its margins), for a page still loading. */
export function TitleSkeleton({ width = '40%' }: { width?: number | string }) {
  return <Skeleton width={width} height={32} style={{ margin: '21px 0' }} />;
}

/** The placeholder of a page whose shape is not known in advance: a title and two lines. */
export function PageSkeleton() {
  return (
    <>
      <TitleSkeleton />
      <Skeleton height={16} style={{ marginBottom: 8 }} />
      <Skeleton width="70%" height={16} />
    </>
  );
}

/** Text for screen readers only (a skeleton says "loading" to the eye). */
export const VisuallyHidden = styled.span`
  position: absolute;
  width: 1px;
  height: 1px;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
`;

const Empty = styled.div`
  display: grid;
  justify-items: center;
  gap: ${theme.space.sm};
  padding: ${theme.space.xl} ${theme.space.lg};
  color: ${theme.colors.muted};
  text-align: center;
  .icon svg {
    width: 32px;
    height: 32px;
  }
  p {
    margin: 0;
  }
  .title {
    color: ${theme.colors.text};
    font-weight: 600;
  }
`;

export interface EmptyStateProps {
  /** The spec's text where it gives one ('No notifications'). */
  title: string;
  /** What the user can do about it. */
  children?: ReactNode;
  /** A decorative symbol. */
  icon?: ReactNode;
}

/** What a list or page shows when it has nothing in it: what is missing, and what to do next. */
export function EmptyState({ title, children, icon }: EmptyStateProps) {
  return (
    <Empty data-empty="">
      {icon && (
        <span className="icon" aria-hidden="true">
          {icon}
        </span>
      )}
      <p className="title">{title}</p>
      {children && <p>{children}</p>}
    </Empty>
  );
}
