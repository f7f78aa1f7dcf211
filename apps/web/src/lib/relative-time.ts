import { useEffect, useState } from 'react';
import { shortDate } from './format-date';
import { currentLocale } from './current-locale';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const formats = new Map<string, Intl.RelativeTimeFormat>();

function relativeFormat(): Intl.RelativeTimeFormat {
  const locale = currentLocale();
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'long' });
    formats.set(locale, format);
  }
  return format;
}

/**
 * "now", "5 minutes ago", "3 hours ago", "yesterday", "4 days ago", then the date ("Mar 4"): what
 * Intl.RelativeTimeFormat says with `numeric: 'auto'`, in the app's language (issue 43).
 */
export function formatRelativeTime(iso: string, now: number): string {
  const time = new Date(iso).getTime();
  if (Number.isNaN(time)) return '';
  const elapsed = Math.max(0, now - time);
  const format = relativeFormat();
  if (elapsed < MINUTE) return format.format(0, 'second');
  if (elapsed < HOUR) return format.format(-Math.floor(elapsed / MINUTE), 'minute');
  if (elapsed < DAY) return format.format(-Math.floor(elapsed / HOUR), 'hour');
  if (elapsed < 7 * DAY) return format.format(-Math.floor(elapsed / DAY), 'day');
  const date = new Date(time);
  return shortDate(date, date.getFullYear() !== new Date(now).getFullYear());
}

/** The current time, refreshed every `intervalMs`, so "5 minutes ago" does not go stale on an open page. */
export function useNow(intervalMs = MINUTE): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}
