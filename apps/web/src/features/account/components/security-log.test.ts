import { i18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { originOf } from './security-log';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

describe('originOf', () => {
  it('names the device and the network of the session that made the change', () => {
    expect(originOf({ device: 'Firefox on Linux', place: '203.0.113.0/24' })).toBe('Firefox on Linux · 203.0.113.0/24');
  });

  it('names a mailed link, which has no device', () => {
    expect(originOf({ device: '', place: '198.51.100.0/24' })).toBe('A link in the mail · 198.51.100.0/24');
    expect(originOf({ device: '', place: '' })).toBe('A link in the mail');
  });
});
