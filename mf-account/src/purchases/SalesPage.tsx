import styled from 'styled-components';
import { PAGE_DATA, pageQuery, formatMoney, Time } from '@marketplace/shared';
import { AccountPage } from '../profile/AccountPage.js';
import { useAccountQuery } from '../profile/queries.js';
import { TableSection } from '../ui.js';

const MONEY_COLUMNS = [
  { label: 'Amount', money: true },
  { label: 'Fee', money: true },
  { label: 'Payout', money: true },
] as const;
const MONTH_COLUMNS = [{ label: 'Month' }, { label: 'Sales', money: true }, ...MONEY_COLUMNS];
const SALE_COLUMNS = [{ label: 'Date' }, { label: 'Item' }, { label: 'Buyer' }, ...MONEY_COLUMNS];

const MONTH = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** A month of the contract ("YYYY-MM", UTC) in words: "November 2026"; as sent when it is not one. */
export function monthText(month: string): string {
  const start = new Date(`${month}-01T00:00:00Z`);
  return /^\d{4}-\d{2}$/.test(month) && !Number.isNaN(start.getTime()) ? MONTH.format(start) : month;
}

const Sections = styled.div`
  /* A sale's date reads as the table's text, not as a list's faint stamp. */
  time {
    color: inherit;
    font-size: inherit;
  }
`;

/** A seller's sales (MEDIA users; the API answers anyone else with the reason): totals per month, then each sale. */
export function SalesPage() {
  const q = useAccountQuery(pageQuery(PAGE_DATA.sales()));
  const sales = q.data?.sales ?? [];
  const months = q.data?.months ?? [];
  return (
    <AccountPage
      title="Sales"
      width="wide"
      state={q}
      empty={{
        when: sales.length === 0,
        title: 'No sales yet.',
        hint: 'The photos and videos you sell appear here once they are paid for.',
      }}
    >
      <Sections>
        <TableSection title="By month" columns={MONTH_COLUMNS}>
          <tbody>
            {months.map((m) => (
              <tr key={`${m.month}/${m.currency}`}>
                <th scope="row">{monthText(m.month)}</th>
                <td className="money">{m.count}</td>
                <td className="money">{formatMoney(m.amountCents, m.currency)}</td>
                <td className="money">{formatMoney(m.feeCents, m.currency)}</td>
                <td className="money">{formatMoney(m.payoutCents, m.currency)}</td>
              </tr>
            ))}
          </tbody>
        </TableSection>
        <TableSection title="Every sale" columns={SALE_COLUMNS}>
          <tbody>
            {sales.map((s) => (
              <tr key={`${s.purchaseNumber}/${s.identifier}`}>
                <td>
                  <Time iso={s.soldAt} absolute />
                </td>
                <td className="name">{s.name}</td>
                <td>{s.buyerProfileName}</td>
                <td className="money">{formatMoney(s.amountCents, s.currency)}</td>
                <td className="money">{formatMoney(s.feeCents, s.currency)}</td>
                <td className="money">{formatMoney(s.payoutCents, s.currency)}</td>
              </tr>
            ))}
          </tbody>
        </TableSection>
      </Sections>
    </AccountPage>
  );
}
