import { formatMoney, PageLayout, safeHref, useSession } from '@marketplace/shared';

export function CartPage() {
  const cart = useSession((s) => s.cart);
  const remove = useSession((s) => s.removeFromCart);
  return (
    <PageLayout>
      <h1>Cart</h1>
      {cart.length === 0 ? (
        <p>Your cart is empty.</p>
      ) : (
        <ul aria-label="Cart items">
          {cart.map((item) => (
            <li key={item.identifier} style={{ display: 'flex', gap: 12, alignItems: 'center', marginBottom: 8 }}>
              {safeHref(item.thumbnailUrl) && <img src={safeHref(item.thumbnailUrl) ?? undefined} alt="" width={64} loading="lazy" />}
              <span>
                {item.name}
                {item.eventName ? ` · ${item.eventName}` : ''} · {formatMoney(item.priceCents)}
              </span>
              <button type="button" onClick={() => void remove(item.identifier)} aria-label={`Remove ${item.name}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </PageLayout>
  );
}
