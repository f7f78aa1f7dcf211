import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { NOTIFICATION_ACTIONS } from '@share-arts/contract';

/**
 * A notification's whole sentence in the app's language (issue 43): the contract's NOTIFICATION_ACTIONS say in
 * English what someone did ("liked your post"), after the people; here each is the whole sentence, with the people
 * as {actors} (and a series' or a collection's title as {title}), so each language orders them its own way; {count},
 * how many people, lets a language agree its verb with them (English says the same either way). The English stays
 * the contract's word for word (notification-text.test.ts checks it): "{actors} liked your post".
 * A report's outcome names no one: REPORT_RESOLVED, the contract's REPORT_RESOLVED_TEXT.
 */
export const NOTIFICATION_SENTENCES = {
  like: msg({ message: '{count, plural, one {{actors} liked your post} other {{actors} liked your post}}' }),
  comment: msg({
    message: '{count, plural, one {{actors} commented on your post} other {{actors} commented on your post}}',
  }),
  upvote: msg({
    message: '{count, plural, one {{actors} upvoted your comment} other {{actors} upvoted your comment}}',
  }),
  follow: msg({
    message: '{count, plural, one {{actors} started following you} other {{actors} started following you}}',
  }),
  mention: msg({
    message: '{count, plural, one {{actors} mentioned you in a post} other {{actors} mentioned you in a post}}',
  }),
  boost: msg({ message: '{count, plural, one {{actors} boosted your post} other {{actors} boosted your post}}' }),
  'series-work': msg({
    message: '{count, plural, one {{actors} added a work to {title}} other {{actors} added a work to {title}}}',
  }),
  'collection-work': msg({
    message: '{count, plural, one {{actors} added your work to {title}} other {{actors} added your work to {title}}}',
  }),
  'commissions-open': msg({
    message: '{count, plural, one {{actors} is open for commissions} other {{actors} is open for commissions}}',
  }),
  inquiry: msg({ message: '{count, plural, one {{actors} sent you an inquiry} other {{actors} sent you an inquiry}}' }),
  'inquiry-message': msg({
    message: '{count, plural, one {{actors} wrote in your inquiry} other {{actors} wrote in your inquiry}}',
  }),
  'inquiry-state': msg({
    message:
      '{count, plural, one {{actors} changed the state of your inquiry} other {{actors} changed the state of your inquiry}}',
  }),
} satisfies Record<Exclude<keyof typeof NOTIFICATION_ACTIONS, 'report-resolved'>, MessageDescriptor>;

/** A mention in a comment (the contract's notificationAction('mention', true)). */
export const MENTION_IN_COMMENT = msg({
  message: '{count, plural, one {{actors} mentioned you in a comment} other {{actors} mentioned you in a comment}}',
});

/** A report's outcome when the server sent no words of its own (the contract's REPORT_RESOLVED_TEXT). */
export const REPORT_RESOLVED = msg`A moderator reviewed your report.`;

/** What an inquiry-state notification says the artist did (issue 42; the web app's words, not the contract's). */
export const INQUIRY_STATE_SENTENCES = {
  accepted: msg({
    message: '{count, plural, one {{actors} accepted your inquiry} other {{actors} accepted your inquiry}}',
  }),
  declined: msg({
    message: '{count, plural, one {{actors} declined your inquiry} other {{actors} declined your inquiry}}',
  }),
  done: msg({
    message: '{count, plural, one {{actors} marked your inquiry done} other {{actors} marked your inquiry done}}',
  }),
  answered: msg({
    message: '{count, plural, one {{actors} answered your inquiry} other {{actors} answered your inquiry}}',
  }),
} satisfies Record<string, MessageDescriptor>;

/** "a series" / "a collection": a series-work's or a collection-work's title once it is gone (or private). */
export const NO_SERIES_TITLE = msg`a series`;
export const NO_COLLECTION_TITLE = msg`a collection`;
