import { i18n } from '@lingui/core';

/** A moment as the app's language writes dates, e.g. "26 Nov 2026, 20:15" (the sessions and the security log). */
export const formatMoment = (iso: string) =>
  new Date(iso).toLocaleString(i18n.locale || undefined, { dateStyle: 'medium', timeStyle: 'short' });
