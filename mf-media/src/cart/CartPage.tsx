import styled from 'styled-components';
import { Button, EmptyState, formatMoney, Link, PageLayout, PAGES, safeHref, theme, useSession } from '@marketplace/shared';

const Items = styled.ul`
  list-style: none;
  padding: 0;
  margin: 0;
  > li {
    display: flex;
    gap: ${theme.space.md};
    align-items: center;
    padding: ${theme.space.md} 0;
    border-bottom: 1px solid ${theme.colors.border};
  }
  img {
    width: 64px;
    height: 48px;
    object-fit: cover;
    border-radius: 4px;
  }
  .what {
    flex: 1;
  }
`;

export function CartPage() {
  const cart = useSession((s) => s.cart);
  const remove = useSession((s) => s.removeFromCart);
  return (
    <PageLayout>
      <h1>Cart</h1>
      {cart.length === 0 ? (
        <EmptyState title="Your cart is empty." icon="🛒">
          Find photos and videos on the <Link to={PAGES.events.href()}>Events</Link> page.
        </EmptyState>
      ) : (
        <Items aria-label="Cart items">
          {cart.map((item) => (
            <li key={item.identifier}>
              {safeHref(item.thumbnailUrl) && <img src={safeHref(item.thumbnailUrl) ?? undefined} alt="" width={64} height={48} loading="lazy" />}
              <span className="what">
                {item.name}
                {item.eventName ? ` · ${item.eventName}` : ''} · {formatMoney(item.priceCents)}
              </span>
              <Button variant="ghost" size="small" onClick={() => void remove(item.identifier)} aria-label={`Remove ${item.name}`}>
                Remove
              </Button>
            </li>
          ))}
        </Items>
      )}
    </PageLayout>
  );
}
