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
