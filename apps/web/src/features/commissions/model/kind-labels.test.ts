import { i18n } from '@lingui/core';
import { COMMISSION_KIND_LABELS, COMMISSION_KINDS } from '@share-arts/contract';
import { describe, expect, it } from 'vitest';
import { COMMISSION_KIND_TEXT, commissionKindLabel } from './kind-labels';

describe('commission kind labels in the web app', () => {
  it('are in English word for word the contract’s, for every kind', () => {
    i18n.loadAndActivate({ locale: 'en', messages: {} });
    expect(Object.keys(COMMISSION_KIND_TEXT).sort()).toEqual([...COMMISSION_KINDS].sort());
    for (const kind of COMMISSION_KINDS) expect(commissionKindLabel(kind)).toBe(COMMISSION_KIND_LABELS[kind]);
  });
});
