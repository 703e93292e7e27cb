import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.js';
import { PAGE_LIST } from '../platform/pages.js';
import { MemoryRouter } from '../router.js';
import { QueryState } from '../ui/QueryState.js';
import { currentHead, documentTitle, headStore, NOT_FOUND_HEAD, routeHead, summary } from './head.js';

afterEach(() => headStore.setState({ route: null, page: null }));

describe('page heads', () => {
  it('gives every page of the platform table a title and a description', () => {
    for (const page of PAGE_LIST) {
      expect(page.title.trim(), page.key).not.toBe('');
      expect(page.description.length, page.key).toBeGreaterThan(20);
      expect(page.description.length, page.key).toBeLessThanOrEqual(160);
    }
  });

  it("titles a location by its page, and one with no page 'Page not found'", () => {
    expect(routeHead('/user/orders').title).toBe('Your orders');
    expect(routeHead('/user/login').title).toBe('Log in');
    expect(routeHead('/nowhere/at/all')).toEqual(NOT_FOUND_HEAD);
    expect(documentTitle('Your orders')).toBe('Your orders · EventMedia');
  });

  it('prefers what a page says of itself, only for the route it said it on', () => {
    headStore.setState({ route: { path: '/event/a', head: routeHead('/event/a') } });
    expect(currentHead()?.title).toBe('Event');
    headStore.setState({ page: { path: '/event/a', head: { title: 'Summer Jazz Night', description: 'Jazz.' } } });
    expect(currentHead()?.title).toBe('Summer Jazz Night');
    headStore.setState({ route: { path: '/events', head: routeHead('/events') } });
    expect(currentHead()?.title).toBe('Events');
  });

  it('cuts a long text into a description at a word', () => {
    expect(summary('  Jazz \n by the   river.  ')).toBe('Jazz by the river.');
    const long = summary('word '.repeat(100));
    expect(long.length).toBeLessThanOrEqual(160);
    expect(long).toMatch(/word…$/);
  });
});

describe('the not-found state', () => {
  const renderFailure = (error: unknown, notFoundText?: string) =>
    render(
      <MemoryRouter initialEntries={['/event/nope']}>
        <QueryState isLoading={false} error={error} notFoundText={notFoundText}>
          content
        </QueryState>
      </MemoryRouter>,
    );

  it('shows a thing the API does not know as not found, with a way back and no retry', () => {
    renderFailure(new ApiError(404, 'Event not found'), 'There is no event at this address.');
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText('There is no event at this address.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse events' })).toHaveAttribute('href', '/events');
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(headStore.getState().page).toEqual({ path: '/event/nope', head: NOT_FOUND_HEAD });
  });

  it('keeps a failed load a failure: another status, or a list that did not ask for not-found', () => {
    renderFailure(new ApiError(500, 'boom'), 'There is no event at this address.');
    expect(screen.getByRole('alert')).toHaveTextContent('This could not be loaded. Please try again.');
    renderFailure(new ApiError(404, 'No route'));
    expect(screen.getAllByRole('alert')).toHaveLength(2);
    expect(screen.queryByRole('heading', { name: 'Page not found' })).toBeNull();
  });
});
