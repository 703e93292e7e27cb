import { useId, useState, type FormEvent } from 'react';
import styled from 'styled-components';
import {
  Button,
  formatMoney,
  PAGES,
  QueryState,
  setLoginRedirect,
  Skeleton,
  TextField,
  theme,
  useLocation,
  useNavigate,
  useSession,
  type CartSummary,
} from '@marketplace/shared';
import { refusalText, useCartSummary } from './useCartSummary.js';
import { useCheckout } from './useCheckout.js';

const Panel = styled.section`
  display: grid;
  gap: ${theme.space.lg};
  padding: ${theme.space.lg};
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radius};
  background: ${theme.colors.background};
  h2 {
    margin: 0;
    font-size: ${theme.text.large};
  }
  .muted {
    color: ${theme.colors.muted};
    font-size: ${theme.text.small};
  }
  [role='alert'] {
    margin: 0;
    color: ${theme.colors.danger};
  }
`;

const Rows = styled.dl`
  margin: 0;
  > div {
    display: flex;
    justify-content: space-between;
    align-items: baseline;
    gap: ${theme.space.md};
    padding: ${theme.space.xs} 0;
  }
  dt,
  dd {
    margin: 0;
  }
  dd {
    white-space: nowrap;
    font-variant-numeric: tabular-nums;
  }
  .discount dd {
    color: ${theme.colors.success};
  }
  .total {
    margin-top: ${theme.space.sm};
    padding-top: ${theme.space.sm};
    border-top: 1px solid ${theme.colors.border};
    font-weight: 700;
    font-size: ${theme.text.large};
  }
  &[aria-busy='true'] {
    opacity: 0.6;
  }
`;

/** The code's box and its button on one row, level (the label is the heading above them). */
const CodeForm = styled.form`
  display: grid;
  gap: ${theme.space.xs};
  > .row {
    display: grid;
    grid-template-columns: minmax(0, 1fr) auto;
    gap: ${theme.space.sm};
    align-items: start;
  }
  h3 {
    margin: 0;
    font-size: ${theme.text.small};
  }
`;

const Notice = styled.div`
  padding: ${theme.space.md};
  border-radius: ${theme.controlRadius};
  background: ${theme.colors.highlight};
  p,
  ul {
    margin: 0;
  }
  ul {
    padding-left: ${theme.space.xl};
    margin-top: ${theme.space.xs};
  }
`;

const SUMMARY_SKELETON = [0, 1, 2].map((i) => <Skeleton key={i} height={18} style={{ margin: '8px 0' }} />);

/**
 * The cart's order summary (beside the list on a wide screen, under it on a phone): the
 * server's subtotal, discount and total, the discount code, and checkout.
 */
export function OrderSummary() {
  const titleId = useId();
  const { summary, applyCode, removeCode } = useCartSummary();
  const data = summary.data?.summary;
  return (
    <Panel aria-labelledby={titleId}>
      <h2 id={titleId}>Order summary</h2>
      <QueryState
        isLoading={summary.isLoading}
        error={summary.error}
        errorText={(error) => refusalText(error, 'The totals could not be loaded. Please try again.')}
        skeleton={SUMMARY_SKELETON}
      >
        {data && (
          <Totals
            summary={data}
            busy={summary.isPlaceholderData || removeCode.isPending}
            onRemoveCode={() => removeCode.mutate()}
          />
        )}
      </QueryState>
      {removeCode.error && (
        <p role="alert">{refusalText(removeCode.error, 'The code could not be removed. Please try again.')}</p>
      )}
      <DiscountCodeForm
        pending={applyCode.isPending}
        error={
          applyCode.error ? refusalText(applyCode.error, 'The code could not be applied. Please try again.') : null
        }
        onApply={(code, done) => applyCode.mutate(code, { onSuccess: done })}
      />
      <Checkout />
    </Panel>
  );
}

function Totals({ summary, busy, onRemoveCode }: { summary: CartSummary; busy: boolean; onRemoveCode: () => void }) {
  const { currency, discountCode } = summary;
  return (
    <Rows aria-label="Totals" aria-busy={busy}>
      <div>
        <dt>
          Subtotal ({summary.itemCount} {summary.itemCount === 1 ? 'item' : 'items'})
        </dt>
        <dd>{formatMoney(summary.subtotalCents, currency)}</dd>
      </div>
      {discountCode && (
        <div className="discount">
          <dt>
            Discount <code>{discountCode.code}</code>
            <br />
            <span className="muted">
              {discountCode.amountOffCents !== undefined
                ? `${formatMoney(discountCode.amountOffCents, currency)} off the total of`
                : `${discountCode.percentOff}% off`}{' '}
              {discountCode.sellerName}&rsquo;s items
            </span>{' '}
            <Button
              variant="link"
              onClick={onRemoveCode}
              disabled={busy}
              aria-label={`Remove code ${discountCode.code}`}
            >
              Remove
            </Button>
          </dt>
          <dd>{formatMoney(summary.discountCents ? -summary.discountCents : 0, currency)}</dd>
        </div>
      )}
      <div className="total">
        <dt>Total</dt>
        <dd>{formatMoney(summary.totalCents, currency)}</dd>
      </div>
    </Rows>
  );
}

function DiscountCodeForm({
  pending,
  error,
  onApply,
}: {
  pending: boolean;
  error: string | null;
  onApply: (code: string, done: () => void) => void;
}) {
  const [code, setCode] = useState('');
  const headingId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const value = code.trim();
    if (value && !pending) onApply(value, () => setCode(''));
  };
  return (
    <CodeForm onSubmit={submit} aria-labelledby={headingId}>
      <h3 id={headingId}>Discount code</h3>
      <div className="row">
        <TextField
          label="Discount code"
          hideLabel
          name="code"
          autoComplete="off"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={error}
        />
        <Button type="submit" variant="secondary" disabled={pending || code.trim() === ''}>
          Apply
        </Button>
      </div>
    </CodeForm>
  );
}

/** Check out for a member; for a visitor, log in first and come back here (SPEC.md section 2, loginRedirect). */
function Checkout() {
  const isLoggedIn = useSession((s) => s.isLoggedIn);
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const { busy, refused, error, checkout, pay } = useCheckout();

  if (!isLoggedIn) {
    return (
      <Button
        variant="primary"
        onClick={() => {
          setLoginRedirect(`${pathname}${search}`);
          navigate(PAGES.login.href());
        }}
      >
        Log in to check out
      </Button>
    );
  }
  if (refused) {
    const { purchase } = refused;
    return (
      <>
        <Notice role="status">
          <p>These items could not be bought and have left your cart:</p>
          <ul>
            {refused.items.map((item) => (
              <li key={item.identifier}>
                {item.name}: {item.reason}
              </li>
            ))}
          </ul>
          {purchase.items.length > 0 && (
            <p>
              The rest comes to <strong>{formatMoney(purchase.totalCents, purchase.currency)}</strong>.
            </p>
          )}
        </Notice>
        {purchase.items.length > 0 && (
          <Button variant="primary" onClick={() => pay(purchase)}>
            Continue to payment
          </Button>
        )}
      </>
    );
  }
  return (
    <>
      {error && <p role="alert">{error}</p>}
      <Button variant="primary" disabled={busy} aria-busy={busy} onClick={() => void checkout()}>
        {busy ? 'Checking out…' : 'Check out'}
      </Button>
    </>
  );
}
