/**
 * Money from integer minor units, the way every remote shows it: "$1,234.50" (en-US, the spec's
 * locale). The amount goes to Intl as an exact decimal string (`123450E-2`), never divided as a
 * float, and in the currency's own number of minor digits (a yen has none).
 */
export function formatMoney(minorUnits: number, currency = 'USD'): string {
  const format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  // Intl.NumberFormat takes a decimal string exactly (ES2023); TypeScript's lib types only number and bigint.
  return format.format(`${minorUnits}E-${digits}` as unknown as number);
}

/**
 * An amount a person typed ("400", "1,250.5", "$99.99") as integer minor units of a two-digit
 * currency, read digit by digit (never through a float); null when it is not an amount.
 */
export function parseMoney(text: string): number | null {
  const match = /^\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const [, whole = '0', fraction = ''] = match;
  const cents = Number(whole.replaceAll(',', '')) * 100 + Number(fraction.padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}
