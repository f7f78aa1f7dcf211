// Formatted by hand, in the en-US forms Intl gives, because the first Intl call of a page costs about
// 15 ms of main thread (it loads the locale's data) and the feed's first render formats a date per card.
// format-date.test.ts checks these against Intl.DateTimeFormat.

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const pad = (n: number) => String(n).padStart(2, '0');

/** "Mar 4" (Intl's `{ month: 'short', day: 'numeric' }`), with ", 2025" when `withYear`. */
export function shortDate(date: Date, withYear: boolean): string {
  const day = `${MONTHS[date.getMonth()]!.slice(0, 3)} ${date.getDate()}`;
  return withYear ? `${day}, ${date.getFullYear()}` : day;
}

/** "07:57 PM", or "7:57 PM" without `twoDigitHour` (local time). */
function clock(date: Date, twoDigitHour: boolean): string {
  const hour = date.getHours() % 12 || 12;
  return `${twoDigitHour ? pad(hour) : hour}:${pad(date.getMinutes())} ${date.getHours() < 12 ? 'AM' : 'PM'}`;
}

/** "Today · 07:57 PM", "Mar 4 · 07:57 PM", "Mar 4, 2025 · 07:57 PM": the spec's hh:mm A, in local time. */
export function formatPostTime(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const sameDay = date.toDateString() === now.toDateString();
  const day = sameDay ? 'Today' : shortDate(date, date.getFullYear() !== now.getFullYear());
  return `${day} · ${clock(date, true)}`;
}

/** The full date and time, for a tooltip: "Tuesday, March 4, 2025 at 7:57 PM". */
export function formatFullDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const day = `${WEEKDAYS[date.getDay()]}, ${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;
  return `${day} at ${clock(date, false)}`;
}
