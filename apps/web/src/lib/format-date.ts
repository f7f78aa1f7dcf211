import { currentLocale } from './current-locale';

// Dates in the app's language (issue 43), through the platform's Intl. A formatter is built once per language
// and kind and kept: building one is what costs (the locale's data), formatting with it is cheap.

type Kind = 'day' | 'dayYear' | 'clock' | 'full' | 'today';
const cache = new Map<string, Intl.DateTimeFormat | Intl.RelativeTimeFormat>();

const OPTIONS: Record<Exclude<Kind, 'today'>, Intl.DateTimeFormatOptions> = {
  day: { month: 'short', day: 'numeric' },
  dayYear: { month: 'short', day: 'numeric', year: 'numeric' },
  clock: { hour: '2-digit', minute: '2-digit' },
  full: { dateStyle: 'full', timeStyle: 'short' },
};

function dateFormat(kind: Exclude<Kind, 'today'>): Intl.DateTimeFormat {
  const locale = currentLocale();
  const key = `${locale}:${kind}`;
  let format = cache.get(key) as Intl.DateTimeFormat | undefined;
  if (!format) {
    format = new Intl.DateTimeFormat(locale, OPTIONS[kind]);
    cache.set(key, format);
  }
  return format;
}

/** "Today" in the app's language ("Hoy", "今日", "اليوم"): Intl's relative "today", capitalised. */
function today(): string {
  const locale = currentLocale();
  const key = `${locale}:today`;
  let format = cache.get(key) as Intl.RelativeTimeFormat | undefined;
  if (!format) {
    format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    cache.set(key, format);
  }
  const word = format.format(0, 'day');
  return word.charAt(0).toLocaleUpperCase(locale) + word.slice(1);
}

/** "Mar 4" (Intl's `{ month: 'short', day: 'numeric' }`), with the year ("Mar 4, 2025") when `withYear`. */
export function shortDate(date: Date, withYear: boolean): string {
  return dateFormat(withYear ? 'dayYear' : 'day').format(date);
}

/** "Today · 07:57 PM", "Mar 4 · 07:57 PM", "Mar 4, 2025 · 07:57 PM": the spec's hh:mm A, in local time. */
export function formatPostTime(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const sameDay = date.toDateString() === now.toDateString();
  const day = sameDay ? today() : shortDate(date, date.getFullYear() !== now.getFullYear());
  return `${day} · ${dateFormat('clock').format(date)}`;
}

/** The full date and time, for a tooltip: "Tuesday, March 4, 2025 at 7:57 PM". */
export function formatFullDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return dateFormat('full').format(date);
}
