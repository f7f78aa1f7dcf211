import { i18n } from '@lingui/core';
import { SECURITY_EVENT_KINDS, SECURITY_EVENT_TITLES } from '@share-arts/contract';
import { describe, expect, it } from 'vitest';
import { SECURITY_EVENT_TEXT, securityEventTitle } from './security-event-titles';

describe('security event titles in the web app', () => {
  it('are in English word for word the contract’s, for every kind', () => {
    i18n.loadAndActivate({ locale: 'en', messages: {} });
    expect(Object.keys(SECURITY_EVENT_TEXT).sort()).toEqual([...SECURITY_EVENT_KINDS].sort());
    for (const kind of SECURITY_EVENT_KINDS) expect(securityEventTitle(kind)).toBe(SECURITY_EVENT_TITLES[kind]);
  });
});
