import { describe, expect, it } from 'vitest';
import { formatMoney } from './format.js';

describe('formatMoney', () => {
  it('shows cents as dollars with two decimals and thousands separators', () => {
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(1999)).toBe('$19.99');
    expect(formatMoney(123450)).toBe('$1,234.50');
  });

  it('takes another currency', () => {
    expect(formatMoney(5000, 'EUR')).toBe('€50.00');
  });
});

describe('formatMoney in minor units', () => {
  it("uses the currency's own minor digits: a yen has none", () => {
    expect(formatMoney(1500, 'JPY')).toBe('¥1,500');
  });

  it('formats amounts a float would round wrongly exactly', () => {
    // The largest safe integer of cents: divided by 100 as a float it shows .90.
    expect(formatMoney(Number.MAX_SAFE_INTEGER)).toBe('$90,071,992,547,409.91');
    expect(formatMoney(-1)).toBe('-$0.01');
  });
});
