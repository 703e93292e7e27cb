import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { MemoryRouter } from 'react-router-dom';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sessionStore, type CartItem, type ContentItem } from '@marketplace/shared';
import { ContentGrid, canOfferAddToCart } from './ContentGrid.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
const { addToCart } = sessionStore.getState();
afterEach(() => {
  server.resetHandlers();
  sessionStore.setState({ cart: [], addToCart });
});
afterAll(() => server.close());

const item = (over: Partial<ContentItem> = {}): ContentItem => ({
  name: 'Stage lights',
  contentIdentifier: 'ci-1',
  contentUrl: 'http://files.test/media/a.png',
  contentType: 'image/png',
  metadata: { 'Content-Type': 'image/png' },
  width: 1200,
  height: 800,
  thumbnailUrl: 'http://files.test/media/a-thumb.png',
  filePath: 'a.png',
  filename: 'a.png',
  eventName: 'Jazz',
  eventIdentifier: 'jazz',
  photographer: 'Mia Lens',
  profileName: 'mia',
  iconUrl: null,
  canAddToCart: true,
  priceCents: 1500,
  ...over,
});
const inCart = (identifier: string): CartItem => ({ identifier, itemType: 'CONTENT', name: 'x', thumbnailUrl: null, eventName: null, priceCents: 1 });

const renderGrid = (items: ContentItem[]) =>
  render(
    <MemoryRouter>
      <ContentGrid items={items} />
    </MemoryRouter>,
  );

describe('Add to cart', () => {
  it('is offered only with a contentIdentifier, canAddToCart, and not already in the cart (SPEC.md section 5)', () => {
    expect(canOfferAddToCart(item(), [])).toBe(true);
    expect(canOfferAddToCart(item({ contentIdentifier: '' }), [])).toBe(false);
    expect(canOfferAddToCart(item({ canAddToCart: false }), [])).toBe(false);
    expect(canOfferAddToCart(item(), ['ci-1'])).toBe(false);
  });

  it("adds to the shared cart and says 'Added to cart' in green", async () => {
    server.use(http.post('http://api.test/v2/user/cart/addItem', () => HttpResponse.json({ cart: [inCart('ci-1')] })));
    renderGrid([item()]);
    await userEvent.click(screen.getByRole('button', { name: 'Add to cart' }));
    const message = await screen.findByRole('status');
    expect(message).toHaveTextContent('Added to cart');
    expect(message).toHaveStyle({ color: 'rgb(30, 142, 62)' });
    expect(sessionStore.getState().cart.map((c) => c.identifier)).toEqual(['ci-1']);
    expect(screen.queryByRole('button', { name: 'Add to cart' })).toBeNull();
  });

  it("shows 'Item already in cart' in black when the store refuses the item", async () => {
    // The store refuses an item it already holds (tested in shared); here, what the grid shows then.
    sessionStore.setState({ addToCart: async () => 'alreadyInCart' });
    renderGrid([item()]);
    await userEvent.click(screen.getByRole('button', { name: 'Add to cart' }));
    const message = await screen.findByRole('status');
    expect(message).toHaveTextContent('Item already in cart');
    expect(message).toHaveStyle({ color: 'rgb(0, 0, 0)' });
  });

  it('hides Add to cart as soon as the shared cart holds the item', () => {
    renderGrid([item()]);
    act(() => sessionStore.setState({ cart: [inCart('ci-1')] }));
    expect(screen.queryByRole('button', { name: 'Add to cart' })).toBeNull();
  });

  it('names the photographer as a link only when there is a profileName', () => {
    renderGrid([item(), item({ contentIdentifier: 'ci-2', profileName: null, photographer: 'Guest Shooter' })]);
    expect(screen.getByRole('link', { name: 'Mia Lens' })).toHaveAttribute('href', '/user/mia');
    expect(screen.getByText(/Guest Shooter/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Guest Shooter' })).toBeNull();
  });
});
