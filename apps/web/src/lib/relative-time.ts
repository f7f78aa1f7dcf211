import { useEffect, useState } from 'react';
import { shortDate } from './format-date';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const ago = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'} ago`;

/**
 * "just now", "5 minutes ago", "3 hours ago", "yesterday", "4 days ago", then the date ("Mar 4"): what
 * Intl.RelativeTimeFormat('en-US', { numeric: 'auto' }) says, written by hand (see format-date.ts).
 */
export function formatRelativeTime(iso: string, now: number): string {
  const time = new Date(iso).getTime();
  if (Number.isNaN(time)) return '';
  const elapsed = Math.max(0, now - time);
  if (elapsed < MINUTE) return 'just now';
  if (elapsed < HOUR) return ago(Math.floor(elapsed / MINUTE), 'minute');
  if (elapsed < DAY) return ago(Math.floor(elapsed / HOUR), 'hour');
  if (elapsed < 7 * DAY) return elapsed < 2 * DAY ? 'yesterday' : ago(Math.floor(elapsed / DAY), 'day');
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
