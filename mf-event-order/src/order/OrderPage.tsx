import { Link, useParams, useSearchParams } from 'react-router-dom';
import styled from 'styled-components';
import { safeHref, theme, type EventOrderStep, type EventOrderView } from '@marketplace/shared';
import { useOrderDetails } from './useOrderDetails.js';

const Box = styled.section`
  max-width: 1000px;
  margin: 0 auto;
  padding: 24px;
`;

/** SPEC.md section 4 "Event order status" labels; the photographer sees Pending Requirements. */
export function stepLabel(step: EventOrderStep, view: EventOrderView): string {
  switch (step) {
    case 'ORDER_REQUEST':
      return 'Order Placed';
    case 'REQUIREMENTS_NEEDED':
      return view === 'photographer' ? 'Pending Requirements' : 'Requirements Needed';
    case 'AWAITING_APPROVAL':
      return 'Awaiting Approval';
    case 'PENDING_FULFILLMENTS':
      return 'Pending Fulfillments';
    case 'DELIVERED':
      return 'Delivered';
  }
}

const STEP_COLOR = { COMPLETED: theme.colors.success, CURRENT: theme.colors.warning, LOCKED: theme.colors.locked } as const;

export function OrderPage() {
  const { orderId = '' } = useParams();
  const [search] = useSearchParams();
  const { data, isLoading, error } = useOrderDetails(orderId, search.get('sharingId') ?? undefined);

  if (isLoading) return <Box role="status">Loading the order…</Box>;
  if (error || !data) return <Box role="alert">You are unauthorized to view this page</Box>;

  const back = safeHref(data.backButton.link) ?? '/';
  const backLink = <Link to={back}>{data.backButton.text}</Link>;
  if (data.deleted || data.declined) {
    return (
      <Box>
        {backLink}
        <p role="status">This order has been declined/cancelled</p>
      </Box>
    );
  }
  return (
    <Box>
      {backLink}
      <h1>{data.eventOrderInfo.eventName}</h1>
      <ol aria-label="Order progress" style={{ display: 'flex', gap: 16, listStyle: 'none', padding: 0 }}>
        {data.statuses.map((s) => (
          <li key={s.statusName} data-status-type={s.statusType} style={{ color: STEP_COLOR[s.statusType], fontWeight: s.statusType === 'CURRENT' ? 700 : 400 }}>
            {s.statusType === 'COMPLETED' ? '✓ ' : ''}
            {stepLabel(s.statusName, data.view)}
          </li>
        ))}
      </ol>
      <p>
        Order {data.eventOrderInfo.orderId} · {data.eventOrderInfo.packageName} · {data.eventOrderInfo.location}
      </p>
    </Box>
  );
}
