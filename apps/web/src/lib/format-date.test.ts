import { describe, expect, it } from 'vitest';
import { formatCount } from './format-count';
import { formatFullDate, formatPostTime } from './format-date';
import { formatRelativeTime } from './relative-time';

// The formatters write what Intl writes in the app's language (English here, no other is active); these
// compare the two over hours, days, months and years.
const time = new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', hour12: true });
const dayThisYear = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const dayOtherYear = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const full = new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeStyle: 'short' });
const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto', style: 'long' });

const now = new Date(2025, 5, 15, 12, 30);
const dates = Array.from({ length: 400 }, (_, i) => new Date(2024, 0, 1 + i, (i * 7) % 24, (i * 13) % 60));

describe('formatPostTime and formatFullDate', () => {
  it('write what Intl writes', () => {
    for (const date of dates) {
      const day = date.getFullYear() === now.getFullYear() ? dayThisYear : dayOtherYear;
      expect(formatPostTime(date.toISOString(), now)).toBe(`${day.format(date)} · ${time.format(date)}`);
      expect(formatFullDate(date.toISOString())).toBe(full.format(date));
    }
  });

  it('say Today for the same day, and nothing for a bad date', () => {
    expect(formatPostTime(new Date(2025, 5, 15, 0, 5).toISOString(), now)).toBe('Today · 12:05 AM');
    expect(formatPostTime('not a date', now)).toBe('');
    expect(formatFullDate('not a date')).toBe('');
  });
});

describe('formatRelativeTime', () => {
  it('writes what Intl.RelativeTimeFormat writes', () => {
    const at = now.getTime();
    const minute = 60_000;
    expect(formatRelativeTime(new Date(at - 30_000).toISOString(), at)).toBe(relative.format(0, 'second'));
    for (const minutes of [1, 2, 59]) {
      expect(formatRelativeTime(new Date(at - minutes * minute).toISOString(), at)).toBe(
        relative.format(-minutes, 'minute'),
      );
    }
    for (const hours of [1, 5, 23]) {
      expect(formatRelativeTime(new Date(at - hours * 60 * minute).toISOString(), at)).toBe(
        relative.format(-hours, 'hour'),
      );
    }
    for (const days of [1, 2, 6]) {
      expect(formatRelativeTime(new Date(at - days * 1440 * minute).toISOString(), at)).toBe(
        relative.format(-days, 'day'),
      );
    }
    const old = new Date(2025, 2, 4, 9, 0);
    expect(formatRelativeTime(old.toISOString(), at)).toBe(dayThisYear.format(old));
    const older = new Date(2023, 10, 20, 9, 0);
    expect(formatRelativeTime(older.toISOString(), at)).toBe(dayOtherYear.format(older));
  });
});

describe('formatCount', () => {
  it('groups thousands as toLocaleString does', () => {
    for (const n of [0, 1, 12, 999, 1000, 12345, 999999, 1000000, 1234567890]) {
      expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
    }
  });
});
