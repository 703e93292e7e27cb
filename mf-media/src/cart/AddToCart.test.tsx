import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { cartItem, contentItem, renderWithSession } from '@marketplace/shared/test-utils';
import { AddToCartButton, canOfferAddToCart } from './AddToCart.js';

describe('Add to cart', () => {
  it('is offered only with a contentIdentifier, canAddToCart, and not already in the cart (SPEC.md section 5)', () => {
    const item = contentItem();
    expect(canOfferAddToCart(item, [])).toBe(true);
    expect(canOfferAddToCart({ ...item, contentIdentifier: '' }, [])).toBe(false);
    expect(canOfferAddToCart({ ...item, canAddToCart: false }, [])).toBe(false);
    expect(canOfferAddToCart(item, [item.contentIdentifier])).toBe(false);
  });

  it("says 'Added to cart' in green, and stays so a second try is refused with 'Item already in cart' in black", async () => {
    const item = contentItem();
    const addToCart = vi.fn().mockResolvedValueOnce('added').mockResolvedValueOnce('alreadyInCart');
    const { store } = renderWithSession(<AddToCartButton item={item} addToCart={addToCart} />);
    await userEvent.click(screen.getByRole('button', { name: 'Add to cart' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Added to cart');
    expect(screen.getByRole('status')).toHaveStyle({ color: 'rgb(19, 115, 51)' });
    act(() => store.setState({ cart: [cartItem(item.contentIdentifier)] }));
    await userEvent.click(screen.getByRole('button', { name: 'Add to cart' }));
    expect(await screen.findByText('Item already in cart')).toHaveStyle({ color: 'rgb(0, 0, 0)' });
    expect(addToCart).toHaveBeenCalledTimes(2);
  });

  it('is hidden as soon as the shared cart holds the item (before it was used)', () => {
    const item = contentItem();
    const { store } = renderWithSession(<AddToCartButton item={item} addToCart={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Add to cart' })).toBeInTheDocument();
    act(() => store.setState({ cart: [cartItem(item.contentIdentifier)] }));
    expect(screen.queryByRole('button', { name: 'Add to cart' })).toBeNull();
  });

  it('is busy at once on a press, and sends once that has painted', async () => {
    const item = contentItem();
    const addToCart = vi.fn().mockResolvedValue('added');
    renderWithSession(<AddToCartButton item={item} addToCart={addToCart} />);
    const button = screen.getByRole('button', { name: 'Add to cart' });
    act(() => button.click());
    expect(button).toBeDisabled();
    expect(addToCart).not.toHaveBeenCalled();
    await waitFor(() => expect(addToCart).toHaveBeenCalledWith(item));
    expect(await screen.findByRole('status')).toHaveTextContent('Added to cart');
    expect(button).toBeEnabled();
  });

  it('says so when adding failed, and can be tried again', async () => {
    const addToCart = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce('added');
    renderWithSession(<AddToCartButton item={contentItem()} addToCart={addToCart} />);
    await userEvent.click(screen.getByRole('button', { name: 'Add to cart' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Could not add to cart');
    await userEvent.click(screen.getByRole('button', { name: 'Add to cart' }));
    expect(await screen.findByText('Added to cart')).toBeInTheDocument();
  });
});
