import { i18n, type MessageDescriptor } from '@lingui/core';
import { plural, t } from '@lingui/core/macro';
import type { Notification, NOTIFICATION_ACTOR_CAP } from '@share-arts/contract';
import { httpUrl } from '../../../lib/safe-url';
import {
  INQUIRY_STATE_SENTENCES,
  MENTION_IN_COMMENT,
  NO_COLLECTION_TITLE,
  NO_SERIES_TITLE,
  NOTIFICATION_SENTENCES,
  REPORT_RESOLVED,
} from './notification-text';

/** The contract's cap, repeated: its module is TypeBox schemas, which the browser does not need. */
const ACTOR_CAP = 3 satisfies typeof NOTIFICATION_ACTOR_CAP;

/** A person as a notification names them: their username, or someone on another server by their @handle. */
export const actorName = (actor: { username: string; remote?: { handle: string } }): string =>
  actor.remote ? `@${actor.remote.handle}` : actor.username;

/**
 * "ana", "ana and theo", "ana, theo and sana", "ana, theo and 2 others": the newest people by name (someone on
 * another server by their handle, "@bob@mastodon.example"), and the rest counted when there are more than the
 * server names. In the app's language (issue 43): each language joins a list its own way.
 */
export function actorsPhrase(
  actors: readonly { username: string; remote?: { handle: string } }[],
  actorCount: number,
): string {
  const names = actors.map(actorName);
  const total = Math.max(actorCount, names.length);
  if (names.length === 0) return total === 1 ? t`Someone` : t`${plural(total, { one: '# person', other: '# people' })}`;
  // "ana, theo": every name but the last, each after a comma in the language's way.
  const list = (names: readonly string[]) =>
    names.slice(1).reduce<string>((head, name) => t`${head}, ${name}`, names[0]!);
  if (total > names.length || total > ACTOR_CAP) {
    const count = Math.min(names.length, ACTOR_CAP - 1);
    const shown = list(names.slice(0, count));
    const others = total - count;
    return t`${shown} and ${plural(others, { one: '# other', other: '# others' })}`;
  }
  if (names.length === 1) return names[0]!;
  const first = list(names.slice(0, -1));
  const last = names.at(-1)!;
  return t`${first} and ${last}`;
}

/** A group's sentence, as a message and its values: the people as {actors}, a series' or collection's {title}. */
export function notificationSentence(notification: Notification): {
  message: MessageDescriptor;
  values: { actors: string; count: number; title?: string };
} {
  const actors = actorsPhrase(notification.actors, notification.actorCount);
  // How many people: for the languages whose verb agrees with them.
  const count = Math.max(notification.actorCount, notification.actors.length, 1);
  const { kind } = notification;
  if (kind === 'report-resolved') return { message: REPORT_RESOLVED, values: { actors, count } };
  // Inquiries (issue 42): a state change says which ("ana accepted your inquiry").
  if (kind === 'inquiry-state') {
    const state = notification.inquiry?.state;
    const which = state === 'accepted' || state === 'declined' || state === 'done' ? state : 'answered';
    return { message: INQUIRY_STATE_SENTENCES[which], values: { actors, count } };
  }
  // "ana added a work to Moth diaries" (issue 41): the series' title ends the sentence.
  if (kind === 'series-work')
    return { message: NOTIFICATION_SENTENCES[kind], values: { actors, count, title: seriesTitle(notification) } };
  // "sana added your work to Figure references" (issue 41): the collection's title ends it too.
  if (kind === 'collection-work') {
    return { message: NOTIFICATION_SENTENCES[kind], values: { actors, count, title: collectionTitle(notification) } };
  }
  if (kind === 'mention' && notification.comment !== null)
    return { message: MENTION_IN_COMMENT, values: { actors, count } };
  return { message: NOTIFICATION_SENTENCES[kind], values: { actors, count } };
}

/**
 * The sentence of a group, e.g. "ana, theo and 2 others liked your post"; a report's outcome in the server's
 * words ("A moderator reviewed your report." when it sent none).
 */
export function describeNotification(notification: Notification): string {
  if (notification.kind === 'report-resolved' && notification.report?.text) return notification.report.text;
  const { message, values } = notificationSentence(notification);
  return i18n._({ ...message, values });
}

/** The title of a collection-work notification's collection ("a collection" once it is gone or private). */
export const collectionTitle = (notification: Notification): string =>
  notification.collection?.title ?? i18n._(NO_COLLECTION_TITLE);

/** The title of a series-work notification's series ("a series" once it is gone). */
export const seriesTitle = (notification: Notification): string =>
  notification.series?.title ?? i18n._(NO_SERIES_TITLE);

/**
 * Where opening a group leads outside this site: the profile of a follower on another server (issue 39), on
 * their own server, when it is an http(s) URL; else undefined (notificationTarget's page here).
 */
export function externalTarget(notification: Notification): string | undefined {
  const actor = notification.actors[0];
  if (notification.kind !== 'follow' || !actor?.remote) return undefined;
  return httpUrl(actor.remote.url);
}

/** Where opening a group leads: the post (its comments for a comment, a vote or a mention in one), or the new follower. */
export function notificationTarget(notification: Notification): string {
  const post = notification.post ? `/posts/${encodeURIComponent(notification.post._id)}` : null;
  // Inquiries (issue 42): the thread.
  if (notification.inquiry) return `/inquiries/${encodeURIComponent(notification.inquiry._id)}`;
  // A report's outcome: the post it was about, if it is still there to see.
  if (notification.kind === 'report-resolved') return post ?? '/notifications';
  // A work of yours in someone's public collection (issue 41): the collection, where you may also take it out.
  if (notification.kind === 'collection-work' && notification.collection) {
    const { username, slug } = notification.collection;
    return `/${encodeURIComponent(username)}/collections/${encodeURIComponent(slug)}`;
  }
  if (notification.kind === 'follow' || !post) {
    const actor = notification.actors[0];
    // Someone on another server has no profile here (externalTarget leads to theirs).
    return actor && !actor.remote ? `/${encodeURIComponent(actor.username)}` : '/notifications';
  }
  // A like, a boost or a mention in the post itself leads to the post; a comment, a vote or a mention in a comment to
  // its comments.
  const onPost =
    notification.kind === 'like' ||
    notification.kind === 'boost' ||
    notification.kind === 'series-work' ||
    notification.kind === 'collection-work' ||
    (notification.kind === 'mention' && notification.comment === null);
  return onPost ? post : `${post}#comments`;
}
