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
