import { useState } from 'react';
import { Link } from 'react-router-dom';
import { safeHref, theme, useSession, type ContentItem } from '@marketplace/shared';
import { Grid } from './ui.js';

/** SPEC.md section 5: Add to cart shows with a contentIdentifier, canAddToCart, and not already in the cart. */
export function canOfferAddToCart(item: ContentItem, cartIdentifiers: readonly string[]): boolean {
  return Boolean(item.contentIdentifier) && item.canAddToCart && !cartIdentifiers.includes(item.contentIdentifier);
}

type Message = { text: 'Added to cart'; color: string } | { text: 'Item already in cart'; color: string };

function ItemCard({ item }: { item: ContentItem }) {
  const cart = useSession((s) => s.cart);
  const addToCart = useSession((s) => s.addToCart);
  const [message, setMessage] = useState<Message | null>(null);
  const inCart = cart.some((c) => c.identifier === item.contentIdentifier);
  const thumb = safeHref(item.thumbnailUrl ?? item.contentUrl);
  return (
    <li>
      {thumb && <img src={thumb} alt={item.name} loading="lazy" width={item.width} height={item.height} />}
      <h3>{item.name}</h3>
      <p>
        by {item.profileName ? <Link to={`/user/${encodeURIComponent(item.profileName)}`}>{item.photographer}</Link> : item.photographer}
      </p>
      {(canOfferAddToCart(item, cart.map((c) => c.identifier)) || (inCart && message)) && (
        <p>
          {!inCart && (
            <button
              type="button"
              onClick={() =>
                void addToCart(item.contentIdentifier).then(
                  (result) =>
                    setMessage(result === 'added' ? { text: 'Added to cart', color: theme.colors.success } : { text: 'Item already in cart', color: '#000' }),
                  () => setMessage(null),
                )
              }
            >
              Add to cart
            </button>
          )}
          {message && (
            <span role="status" style={{ color: message.color, marginLeft: 8 }}>
              {message.text}
            </span>
          )}
        </p>
      )}
    </li>
  );
}

export function ContentGrid({ items }: { items: ContentItem[] }) {
  return (
    <Grid>
      {items.map((item) => (
        <ItemCard key={item.contentIdentifier} item={item} />
      ))}
    </Grid>
  );
}
