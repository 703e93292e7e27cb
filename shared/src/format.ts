/** Money from integer cents, the way every remote shows it: "$1,234.50" (en-US, the spec's locale). */
export function formatMoney(cents: number, currency = 'USD'): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);
}
