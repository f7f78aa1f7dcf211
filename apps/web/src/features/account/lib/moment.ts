/** A moment as this browser writes dates, e.g. "26 Nov 2026, 20:15" (the sessions and the security log). */
export const formatMoment = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
