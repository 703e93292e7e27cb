import styled from 'styled-components';
import {
  PAGE_DATA,
  pageQuery,
  formatMoney,
  Link,
  PAGES,
  safeHref,
  theme,
  Time,
  useParams,
  usePageHead,
  type Purchase,
  type PurchaseStatus,
} from '@marketplace/shared';
import { AccountPage } from '../profile/AccountPage.js';
import { useAccountQuery } from '../profile/queries.js';
import { TableSection } from '../ui.js';

const LINE_COLUMNS = [
  { label: 'Item' },
  { label: 'Seller' },
  { label: 'Price', money: true },
  { label: 'Discount', money: true },
  { label: 'Amount', money: true },
];

/** A purchase's state in words (contract: open, paid, expired, flagged). */
export const STATUS_TEXT: Record<PurchaseStatus, string> = {
  open: 'Waiting for payment',
  paid: 'Paid',
  expired: 'Expired',
  flagged: 'Under review',
};

const Facts = styled.dl`
  display: grid;
  grid-template-columns: max-content minmax(0, 1fr);
  gap: ${theme.space.sm} ${theme.space.lg};
  margin: 0 0 ${theme.space.xl};
  dt {
    color: ${theme.colors.muted};
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  /* The record's dates read as the text around them, not as a list's faint stamps. */
  time {
    color: inherit;
    font-size: inherit;
  }
`;

export function ReceiptPage() {
  const { purchaseNumber = '' } = useParams();
  const q = useAccountQuery(pageQuery(PAGE_DATA.purchase(purchaseNumber)));
  const purchase = q.data?.purchase;
  usePageHead(
    purchase
      ? {
          title: `Receipt ${purchase.purchaseNumber}`,
          description: `The receipt of purchase ${purchase.purchaseNumber}.`,
        }
      : null,
  );
  return (
    <AccountPage title="Receipt" state={q} notFoundText="There is no receipt at this address.">
      {purchase && <Receipt purchase={purchase} />}
    </AccountPage>
  );
}

function Receipt({ purchase }: { purchase: Purchase }) {
  const money = (cents: number) => formatMoney(cents, purchase.currency);
  const payUrl = purchase.status === 'open' ? safeHref(purchase.payUrl) : null;
  return (
    <>
      <Facts>
        <dt>Purchase number</dt>
        <dd>{purchase.purchaseNumber}</dd>
        <dt>Date</dt>
        <dd>
          <Time iso={purchase.createdAt} absolute />
        </dd>
        <dt>Status</dt>
        <dd>
          {STATUS_TEXT[purchase.status]}
          {payUrl && (
            <>
              {' '}
              (until <Time iso={purchase.expiresAt} absolute />) · <a href={payUrl}>Pay now</a>
            </>
          )}
        </dd>
        {purchase.paidAt && (
          <>
            <dt>Paid</dt>
            <dd>
              <Time iso={purchase.paidAt} absolute />
            </dd>
          </>
        )}
        <dt>Payment reference</dt>
        <dd>{purchase.paymentReference ?? '—'}</dd>
      </Facts>
      <TableSection title="Items" columns={LINE_COLUMNS}>
        <tbody>
          {purchase.items.map((line) => (
            <tr key={line.identifier}>
              <td className="name">{line.name}</td>
              <td>
                <Link to={PAGES.creator.href({ profileName: line.sellerProfileName })}>{line.sellerName}</Link>
              </td>
              <td className="money">{money(line.priceCents)}</td>
              <td className="money">{line.discountCents ? money(-line.discountCents) : '—'}</td>
              <td className="money">{money(line.amountCents)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={4}>
              Subtotal
            </th>
            <td className="money">{money(purchase.subtotalCents)}</td>
          </tr>
          {(purchase.discountCode !== null || purchase.discountCents > 0) && (
            <tr>
              <th scope="row" colSpan={4}>
                Discount{purchase.discountCode ? ` (${purchase.discountCode})` : ''}
              </th>
              <td className="money">{money(purchase.discountCents ? -purchase.discountCents : 0)}</td>
            </tr>
          )}
          <tr>
            <th scope="row" colSpan={4}>
              Total
            </th>
            <td className="money">{money(purchase.totalCents)}</td>
          </tr>
        </tfoot>
      </TableSection>
      <p>
        <Link to={PAGES.purchases.href()}>My purchases</Link>
      </p>
    </>
  );
}
