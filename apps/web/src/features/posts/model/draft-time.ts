import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';

// The times of scheduled posts (issue 41): shown in the zone the artist chose them in, and read from the
// composer's date-time input, which is in the browser's own zone.

/** The browser's IANA time zone (Europe/Paris), what a time chosen here is scheduled in. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * "Tue 8 Dec, 09:00 (Europe/Paris)": the instant in the zone it was scheduled in, named, with the year when it is
 * not this year's (in that zone).
 */
export function scheduledLabel(iso: string, timeZone: string, now = new Date()): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  let zone = timeZone;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
  } catch {
    zone = 'UTC';
  }
  const parts = (date: Date) =>
    Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', {
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZone: zone,
      })
        .formatToParts(date)
        .map((part) => [part.type, part.value]),
    );
  const when = parts(at);
  const locale = i18n.locale;
  if (locale && locale !== 'en') {
    // Another language writes the date its own way (the platform's Intl); the zone's name stays as it is.
    const text = new Intl.DateTimeFormat(locale, {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      ...(when.year !== parts(now).year ? { year: 'numeric' } : {}),
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone: zone,
    }).format(at);
    return `${text} (${timeZone})`;
  }
  const year = when.year !== parts(now).year ? ` ${when.year}` : '';
  const text = `${when.weekday} ${when.day} ${when.month}${year}, ${when.hour}:${when.minute}`;
  return `${text} (${timeZone})`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A date as a datetime-local input's value (YYYY-MM-DDTHH:mm), in the browser's zone. */
export function toLocalInput(date: Date): string {
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/** The default choice: the next whole hour at least 30 minutes away. */
export function defaultScheduleTime(now = new Date()): string {
  const at = new Date(now.getTime() + 30 * 60_000);
  at.setMinutes(0, 0, 0);
  at.setHours(at.getHours() + 1);
  return toLocalInput(at);
}

/** Why a chosen time cannot be used (the server says the same), or undefined. */
export function scheduleProblem(value: string, now = new Date()): string | undefined {
  const at = new Date(value);
  if (!value || Number.isNaN(at.getTime())) return t`Choose a date and a time.`;
  if (at.getTime() <= now.getTime()) return t`That time has passed: choose a time from the next minute on.`;
  if (at.getTime() > now.getTime() + 365 * 86_400_000) return t`Choose a time within a year.`;
  return undefined;
}
