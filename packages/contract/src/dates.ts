/** Formats a date as the contract's `YYYY-MM-DDTHH:mm:ssZ` (UTC, e.g. `2026-11-22T07:57:37+00:00`). */
export function formatDate(date: Date): string {
  return `${date.toISOString().slice(0, 19)}+00:00`;
}

/** Formats a date as `hh:mm A` (12-hour clock, UTC), the spec's post `time`. */
export function formatTime(date: Date): string {
  const hours = date.getUTCHours();
  const h12 = hours % 12 === 0 ? 12 : hours % 12;
  const mm = String(date.getUTCMinutes()).padStart(2, '0');
  return `${String(h12).padStart(2, '0')}:${mm} ${hours < 12 ? 'AM' : 'PM'}`;
}
