import { describe, expect, it } from 'vitest';
import { eventTimeFromInput, eventTimeInput, formatEventTime, formatMoney, parseMoney } from './format.js';

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

  it('keeps each currency to its own digits however the calls alternate (one formatter per currency)', () => {
    expect([formatMoney(1500, 'JPY'), formatMoney(1500), formatMoney(1500, 'JPY'), formatMoney(1500, 'EUR')]).toEqual([
      '¥1,500',
      '$15.00',
      '¥1,500',
      '€15.00',
    ]);
  });
});

describe('parseMoney', () => {
  it('reads what a person types as exact cents', () => {
    expect(parseMoney('400')).toBe(40000);
    expect(parseMoney(' $1,250.5 ')).toBe(125050);
    expect(parseMoney('0.29')).toBe(29);
    expect(parseMoney('19.99')).toBe(1999);
  });

  it('refuses what is not an amount', () => {
    for (const text of ['', 'abc', '-5', '1.234', '1,25', '12e3', '$', '1.']) expect(parseMoney(text)).toBeNull();
  });
});

describe('event times', () => {
  it("shows an event's start on its venue's clock, the same in every time zone", () => {
    expect(formatEventTime('2027-05-01T18:30:00.000Z')).toBe('Sat, 1 May 2027, 18:30');
    expect(formatEventTime('soon')).toBe('');
  });

  it('round-trips a datetime-local value', () => {
    expect(eventTimeInput('2027-05-01T18:30:00.000Z')).toBe('2027-05-01T18:30');
    expect(eventTimeFromInput('2027-05-01T18:30')).toBe('2027-05-01T18:30Z');
    expect(eventTimeFromInput('')).toBe('');
  });
});
