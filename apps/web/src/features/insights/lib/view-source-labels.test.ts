import { i18n } from '@lingui/core';
import { VIEW_SOURCE_LABELS, VIEW_SOURCES } from '@share-arts/contract';
import { describe, expect, it } from 'vitest';
import { VIEW_SOURCE_TEXT, viewSourceLabel } from './view-source-labels';

describe('view source labels in the web app', () => {
  it('are in English word for word the contract’s, for every source', () => {
    i18n.loadAndActivate({ locale: 'en', messages: {} });
    expect(Object.keys(VIEW_SOURCE_TEXT).sort()).toEqual([...VIEW_SOURCES].sort());
    for (const source of VIEW_SOURCES) expect(viewSourceLabel(source)).toBe(VIEW_SOURCE_LABELS[source]);
  });
});
