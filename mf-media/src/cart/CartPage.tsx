import styled from 'styled-components';
import {
  Button,
  CartIcon,
  formatMoney,
  Link,
  PageLayout,
  PAGES,
  Picture,
  QueryState,
  safeHref,
  Skeleton,
  theme,
  useSession,
} from '@marketplace/shared';
import { OrderSummary } from './OrderSummary.js';

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
    min-width: 0;
    overflow-wrap: anywhere;
  }
`;

/** The items, and their summary beside them on a wide screen, under them on a phone (SPEC.md section 9). */
const Columns = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr) minmax(280px, 340px);
  gap: ${theme.space.xl};
  align-items: start;
  ${theme.mobile} {
    grid-template-columns: minmax(0, 1fr);
  }
`;

/** Two rows' places while the session's cart loads. */
const CART_SKELETON = (
  <Items aria-hidden="true">
    {[0, 1].map((i) => (
      <li key={i}>
        <Skeleton shape="block" width={64} height={48} />
        <Skeleton width="50%" height={16} />
      </li>
    ))}
  </Items>
);

export function CartPage() {
  const cart = useSession((s) => s.cart);
  const loaded = useSession((s) => s.loaded);
  const remove = useSession((s) => s.removeFromCart);
  return (
    <PageLayout>
      <h1>Cart</h1>
      <QueryState
        isLoading={!loaded}
        error={null}
        skeleton={CART_SKELETON}
        empty={cart.length === 0}
        emptyText="Your cart is empty."
        emptyIcon={<CartIcon />}
        emptyHint={
          <>
            Find photos and videos on the <Link to={PAGES.events.href()}>Events</Link> page.
          </>
        }
      >
        <Columns>
          <Items aria-label="Cart items">
            {cart.map((item) => (
              <li key={item.identifier}>
                {item.image ? (
                  <Picture image={item.image} alt="" sizes="64px" width={64} height={48} />
                ) : (
                  safeHref(item.thumbnailUrl) && (
                    <img src={safeHref(item.thumbnailUrl) ?? undefined} alt="" width={64} height={48} loading="lazy" />
                  )
                )}
                <span className="what">
                  {item.name}
                  {item.eventName ? ` · ${item.eventName}` : ''} · {formatMoney(item.priceCents, item.currency)}
                </span>
                <Button
                  variant="ghost"
                  size="small"
                  onClick={() => void remove(item.identifier)}
                  aria-label={`Remove ${item.name}`}
                >
                  Remove
                </Button>
              </li>
            ))}
          </Items>
          <OrderSummary />
        </Columns>
      </QueryState>
    </PageLayout>
  );
}
