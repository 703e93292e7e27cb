import { useState } from 'react';
import { afterPaint, Button, theme, useSession, type AddToCartResult, type ContentItem } from '@marketplace/shared';

/** SPEC.md section 5: Add to cart shows with a contentIdentifier, canAddToCart, and not already in the cart. */
export function canOfferAddToCart(item: ContentItem, cartIdentifiers: readonly string[]): boolean {
  return Boolean(item.contentIdentifier) && item.canAddToCart && !cartIdentifiers.includes(item.contentIdentifier);
}

/** SPEC.md section 4 "Cart": the messages and their colours. */
const MESSAGES: Record<AddToCartResult | 'failed', { text: string; color: string }> = {
  added: { text: 'Added to cart', color: theme.colors.success },
  alreadyInCart: { text: 'Item already in cart', color: '#000' },
  failed: { text: 'Could not add to cart, try again', color: theme.colors.danger },
};

export type AddToCart = (item: ContentItem) => Promise<AddToCartResult>;

/**
 * The Add to cart button of one item, offered by the rule above as the shared cart changes. Once
 * used it stays with its message, so adding the same item again is refused locally with 'Item
 * already in cart'. Mount it with the item's identifier as key.
 *
 * The press shows the button busy at once and sends the request once that has painted, so the
 * press does not wait for the request to be made; the message follows the server's answer.
 */
export function AddToCartButton({ item, addToCart }: { item: ContentItem; addToCart: AddToCart }) {
  // Whether this item is in the cart, not the whole cart: a change to the cart renders again
  // only the buttons of the items it adds or removes, not every card's.
  const inCart = useSession((s) => s.cart.some((c) => c.identifier === item.contentIdentifier));
  const [outcome, setOutcome] = useState<keyof typeof MESSAGES | null>(null);
  const [busy, setBusy] = useState(false);
  if (outcome === null && !canOfferAddToCart(item, inCart ? [item.contentIdentifier] : [])) return null;
  const message = outcome ? MESSAGES[outcome] : null;
  return (
    <span className="add-to-cart">
      <Button
        variant="primary"
        size="small"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          afterPaint(() => {
            addToCart(item)
              .then(setOutcome, () => setOutcome('failed'))
              .finally(() => setBusy(false));
          });
        }}
      >
        Add to cart
      </Button>
      {message && (
        <span role="status" style={{ color: message.color, marginLeft: 8 }}>
          {message.text}
        </span>
      )}
    </span>
  );
}
