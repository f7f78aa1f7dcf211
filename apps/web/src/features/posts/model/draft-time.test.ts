import { i18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { defaultScheduleTime, scheduledLabel, scheduleProblem, toLocalInput } from './draft-time';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

describe('scheduled times', () => {
  it('are shown in the zone they were chosen in, named', () => {
    const now = new Date('2026-12-07T10:00:00Z');
    expect(scheduledLabel('2026-12-08T08:00:00Z', 'Europe/Paris', now)).toBe('Tue 8 Dec, 09:00 (Europe/Paris)');
    expect(scheduledLabel('2026-12-08T08:00:00Z', 'America/New_York', now)).toBe('Tue 8 Dec, 03:00 (America/New_York)');
    expect(scheduledLabel('2027-01-08T08:00:00Z', 'UTC', now)).toBe('Fri 8 Jan 2027, 08:00 (UTC)');
  });

  it('default to a whole hour ahead, and refuse the past and beyond a year', () => {
    const now = new Date(2026, 11, 7, 10, 40);
    expect(defaultScheduleTime(now)).toBe('2026-12-07T12:00');
    expect(toLocalInput(new Date(2026, 0, 2, 3, 4))).toBe('2026-01-02T03:04');
    expect(scheduleProblem('2026-12-07T10:00', now)).toMatch(/passed/);
    expect(scheduleProblem('2028-01-01T10:00', now)).toMatch(/within a year/);
    expect(scheduleProblem('', now)).toMatch(/Choose/);
    expect(scheduleProblem('2026-12-08T09:00', now)).toBeUndefined();
  });
});
