/**
 * One formatter per currency, with the number of minor digits it shows: building an
 * Intl.NumberFormat loads locale data and costs far more than formatting with it, and a gallery
 * prices every card on each render.
 */
const MONEY_FORMATS = new Map<string, { format: Intl.NumberFormat; digits: number }>();

function moneyFormat(currency: string) {
  let entry = MONEY_FORMATS.get(currency);
  if (!entry) {
    const format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    entry = { format, digits: format.resolvedOptions().maximumFractionDigits ?? 2 };
    MONEY_FORMATS.set(currency, entry);
  }
  return entry;
}

/**
 * Money from integer minor units, the way every remote shows it: "$1,234.50" (en-US, the spec's
 * locale). The amount goes to Intl as an exact decimal string (`123450E-2`), never divided as a
 * float, and in the currency's own number of minor digits (a yen has none).
 */
export function formatMoney(minorUnits: number, currency = 'USD'): string {
  const { format, digits } = moneyFormat(currency);
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

/**
 * An event's times are its venue's wall clock, carried as UTC instants (the platform knows no
 * venue's time zone): shown in UTC, they read the same to every visitor and in the
 * server-rendered page as after hydration, whatever the time zone of either.
 */
const EVENT_TIME = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** When an event starts, as its page shows it: "Sat, 1 May 2027, 18:30"; '' for a value that is no time. */
export function formatEventTime(iso: string): string {
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? '' : EVENT_TIME.format(time);
}

/** An event's start as a `datetime-local` input's value ("2027-05-01T18:30"), on the venue's clock. */
export function eventTimeInput(iso: string): string {
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? '' : time.toISOString().slice(0, 16);
}

/** A `datetime-local` input's value as the instant the API stores; what is no time is sent as typed, for the API's reason. */
export function eventTimeFromInput(value: string): string {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value) ? `${value}Z` : value;
}
