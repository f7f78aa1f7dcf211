const time = new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', hour12: true });
const dayThisYear = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const dayOtherYear = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const full = new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeStyle: 'short' });

/** "Today · 07:57 PM", "Mar 4 · 07:57 PM", "Mar 4, 2025 · 07:57 PM": the spec's hh:mm A, in local time. */
export function formatPostTime(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const sameDay = date.toDateString() === now.toDateString();
  const day = sameDay
    ? 'Today'
    : date.getFullYear() === now.getFullYear()
      ? dayThisYear.format(date)
      : dayOtherYear.format(date);
  return `${day} · ${time.format(date)}`;
}

/** The full date and time, for a tooltip. */
export function formatFullDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : full.format(date);
}
