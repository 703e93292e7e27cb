import { useState } from 'react';
import styled from 'styled-components';
import {
  Button,
  PAGE_DATA,
  pageQuery,
  formatMoney,
  Link,
  orderStage,
  orderStatusLabel,
  PAGES,
  PhotoIcon,
  theme,
  Time,
  type EventOrderSummary,
  type OrderStage,
} from '@marketplace/shared';
import { AccountPage } from './AccountPage.js';
import { useAccountQuery } from './queries.js';

/** The list's filters: orders still under way, delivered, and those that ended otherwise. */
const FILTERS = {
  all: { label: 'All', stages: null },
  active: {
    label: 'Active',
    stages: ['ORDER_REQUEST', 'REQUIREMENTS_NEEDED', 'AWAITING_APPROVAL', 'APPROVED', 'PENDING_FULFILLMENTS'],
  },
  delivered: { label: 'Delivered', stages: ['DELIVERED'] },
  ended: { label: 'Cancelled', stages: ['CANCELLED', 'DECLINED', 'DELETED'] },
} as const satisfies Record<string, { label: string; stages: readonly OrderStage[] | null }>;
type Filter = keyof typeof FILTERS;

const Tabs = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${theme.space.sm};
  margin-bottom: ${theme.space.md};
`;

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${theme.space.sm};
`;

const THUMBNAIL_PX = 56;

const Row = styled.li`
  display: grid;
  grid-template-columns: ${THUMBNAIL_PX}px minmax(0, 1fr);
  grid-template-areas: 'thumbnail title' 'thumbnail status' 'thumbnail facts';
  gap: ${theme.space.xs} ${theme.space.md};
  align-items: start;
  padding: ${theme.space.md};
  border: 1px solid ${theme.colors.control};
  border-radius: 8px;
  a {
    grid-area: title;
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .thumbnail {
    grid-area: thumbnail;
    width: ${THUMBNAIL_PX}px;
    height: ${THUMBNAIL_PX}px;
    border-radius: 6px;
    object-fit: cover;
    background: ${theme.colors.locked};
    display: grid;
    place-items: center;
    color: ${theme.colors.muted};
  }
  .facts {
    grid-area: facts;
    color: ${theme.colors.muted};
    font-size: ${theme.text.small};
  }
  .status {
    grid-area: status;
    font-weight: 600;
  }
  /* Wide enough: the status beside the title, on the right. */
  @media (min-width: 640px) {
    grid-template-columns: ${THUMBNAIL_PX}px minmax(0, 1fr) auto;
    grid-template-areas: 'thumbnail title status' 'thumbnail facts facts';
    .status {
      text-align: right;
    }
  }
`;

function OrderRow({ order }: { order: EventOrderSummary }) {
  const other = order.view === 'client' ? `with ${order.counterpart}` : `for ${order.counterpart}`;
  return (
    <Row>
      {/* The row's link names the order: its picture adds nothing for a screen reader. */}
      {order.thumbnailUrl ? (
        <img className="thumbnail" src={order.thumbnailUrl} alt="" loading="lazy" data-testid="order-thumbnail" />
      ) : (
        <span className="thumbnail" aria-hidden="true">
          <PhotoIcon />
        </span>
      )}
      <Link to={PAGES.eventOrder.href({ orderId: order.orderId })}>
        {order.eventName} ({order.orderId})
      </Link>
      <span className="status" data-testid="order-row-status">
        {orderStatusLabel(order.view, orderStage(order))}
      </span>
      <span className="facts">
        {order.eventDate && (
          <>
            <Time iso={order.eventDate} absolute /> ·{' '}
          </>
        )}
        {[other, order.packageName, formatMoney(order.totalCents, order.currency)].join(' · ')}
      </span>
    </Row>
  );
}

/** The user's event orders, as client and as photographer, by where they stand. */
export function OrdersPage() {
  const q = useAccountQuery(pageQuery(PAGE_DATA.eventOrders()));
  const [filter, setFilter] = useState<Filter>('all');
  const orders = q.data?.eventOrders ?? [];
  const stages: readonly OrderStage[] | null = FILTERS[filter].stages;
  const shown = stages ? orders.filter((o) => stages.includes(orderStage(o))) : orders;
  return (
    <AccountPage
      title="Orders"
      state={q}
      empty={{
        when: orders.length === 0,
        title: 'No orders yet.',
        hint: 'Orders you place or receive for event photos and videos appear here.',
      }}
    >
      <Tabs role="group" aria-label="Show orders">
        {(Object.keys(FILTERS) as Filter[]).map((key) => (
          <Button
            key={key}
            size="small"
            variant={filter === key ? 'primary' : 'secondary'}
            aria-pressed={filter === key}
            onClick={() => setFilter(key)}
          >
            {FILTERS[key].label}
          </Button>
        ))}
      </Tabs>
      {shown.length === 0 ? (
        <p>No {FILTERS[filter].label.toLowerCase()} orders.</p>
      ) : (
        <List aria-label="Event orders">
          {shown.map((o) => (
            <OrderRow key={o.orderId} order={o} />
          ))}
        </List>
      )}
    </AccountPage>
  );
}
