import styled from 'styled-components';
import {
  Link,
  PageLayout,
  PAGES,
  QueryState,
  NotFoundState,
  safeHref,
  Skeleton,
  statusOf,
  theme,
  TitleSkeleton,
  useParams,
  usePageHead,
  useSearchParams,
} from '@marketplace/shared';
import { isDeclinedOrDeleted } from './labels.js';
import { OrderInfo } from './OrderInfo.js';
import { ProgressBar } from './ProgressBar.js';
import { RightPanel } from './RightPanel.js';
import { useOrderActions } from './useOrderActions.js';
import { useOrderDetails } from './useOrderDetails.js';

// minmax(0, ...): a column is as wide as the page gives it, whatever the widest thing in it (a
// long link, a file name) would ask, so the page never scrolls sideways on a phone.
const Columns = styled.div`
  display: grid;
  grid-template-columns: minmax(260px, 1fr) minmax(0, 2fr);
  gap: 24px;
  ${theme.mobile} {
    grid-template-columns: minmax(0, 1fr);
  }
`;

/** The order page's shape while it loads: back link, title, progress bar and the two panels. */
const ORDER_SKELETON = (
  <>
    <Skeleton width={120} height={16} />
    <TitleSkeleton width="50%" />
    <Skeleton height={40} style={{ marginBottom: 24 }} />
    <Columns>
      <Skeleton shape="block" height={360} />
      <Skeleton shape="block" height={360} />
    </Columns>
  </>
);

export function OrderPage() {
  const { orderId = '' } = useParams();
  const [search] = useSearchParams();
  const { data, isLoading, error } = useOrderDetails(orderId, search.get('sharingId') ?? undefined);
  const actions = useOrderActions(orderId);
  usePageHead(
    data
      ? {
          title: `${data.eventOrderInfo.eventName}: event order`,
          description: `The event media order for ${data.eventOrderInfo.eventName}.`,
        }
      : null,
  );

  // An order that does not exist is not one the user may not see: it gets a way back, not a refusal.
  if (!data && statusOf(error) === 404) {
    return (
      <PageLayout>
        <NotFoundState text="There is no order at this address." />
      </PageLayout>
    );
  }
  if (!data) {
    // No order once loading ended is a failure, and SPEC.md section 6 shows any failure to load
    // the order as not being allowed to see it.
    return (
      <PageLayout>
        <QueryState
          isLoading={isLoading}
          error={isLoading ? null : (error ?? true)}
          errorText="You are unauthorized to view this page"
          skeleton={ORDER_SKELETON}
        >
          {null}
        </QueryState>
      </PageLayout>
    );
  }

  const backLink = <Link to={safeHref(data.backButton.link) ?? PAGES.home.href()}>{data.backButton.text}</Link>;
  if (isDeclinedOrDeleted(data)) {
    return (
      <PageLayout>
        {backLink}
        <p role="status">This order has been declined/cancelled</p>
        {data.eventOrderInfo.declineReason && (
          <p>
            {data.eventOrderInfo.photographer}: “{data.eventOrderInfo.declineReason}”
          </p>
        )}
      </PageLayout>
    );
  }
  return (
    <PageLayout>
      {backLink}
      <h1>{data.eventOrderInfo.eventName}</h1>
      <ProgressBar
        statuses={data.statuses}
        view={data.view}
        ended={data.eventOrderInfo.status === 'CANCELLED' ? 'Cancelled' : undefined}
      />
      <Columns>
        <OrderInfo details={data} onCancel={actions.cancel} onChange={actions.change} onPay={actions.pay} />
        <RightPanel details={data} actions={actions} />
      </Columns>
    </PageLayout>
  );
}
