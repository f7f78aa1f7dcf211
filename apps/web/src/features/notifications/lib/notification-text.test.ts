import { i18n } from '@lingui/core';
import { NOTIFICATION_ACTIONS, notificationAction, REPORT_RESOLVED_TEXT } from '@share-arts/contract';
import { describe, expect, it } from 'vitest';
import { MENTION_IN_COMMENT, NOTIFICATION_SENTENCES, REPORT_RESOLVED } from './notification-text';

// English, the source language: its words are in the code (issue 43).
i18n.loadAndActivate({ locale: 'en', messages: {} });

describe('notification sentences, in English', () => {
  it('say word for word what the contract says after the people (and before a title)', () => {
    for (const [kind, message] of Object.entries(NOTIFICATION_SENTENCES)) {
      const action = NOTIFICATION_ACTIONS[kind as keyof typeof NOTIFICATION_SENTENCES];
      const title = kind === 'series-work' || kind === 'collection-work' ? ' Moth diaries' : '';
      expect(i18n._({ ...message, values: { actors: 'ana and theo', count: 2, title: 'Moth diaries' } })).toBe(
        `ana and theo ${action}${title}`,
      );
    }
    expect(Object.keys(NOTIFICATION_SENTENCES).sort()).toEqual(
      Object.keys(NOTIFICATION_ACTIONS)
        .filter((kind) => kind !== 'report-resolved')
        .sort(),
    );
    expect(i18n._({ ...MENTION_IN_COMMENT, values: { actors: 'mo', count: 1 } })).toBe(
      `mo ${notificationAction('mention', true)}`,
    );
    expect(i18n._(REPORT_RESOLVED)).toBe(REPORT_RESOLVED_TEXT);
  });
});
