import { useState } from 'react';
import { Button, theme, useSession, type AddToCartResult, type ContentItem } from '@marketplace/shared';

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
 */
export function AddToCartButton({ item, addToCart }: { item: ContentItem; addToCart: AddToCart }) {
  const cartIdentifiers = useSession((s) => s.cart.map((c) => c.identifier).join('\n'));
  const [outcome, setOutcome] = useState<keyof typeof MESSAGES | null>(null);
  const [busy, setBusy] = useState(false);
  if (outcome === null && !canOfferAddToCart(item, cartIdentifiers.split('\n'))) return null;
  const message = outcome ? MESSAGES[outcome] : null;
  return (
    <span className="add-to-cart">
      <Button
        variant="primary"
        size="small"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          addToCart(item)
            .then(setOutcome, () => setOutcome('failed'))
            .finally(() => setBusy(false));
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
