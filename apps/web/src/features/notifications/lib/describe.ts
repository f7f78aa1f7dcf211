import { notificationAction, type Notification, type NOTIFICATION_ACTOR_CAP } from '@share-arts/contract';
import { httpUrl } from '../../../lib/safe-url';

/** The contract's cap, repeated: its module is TypeBox schemas, which the browser does not need. */
const ACTOR_CAP = 3 satisfies typeof NOTIFICATION_ACTOR_CAP;

/** A person as a notification names them: their username, or someone on another server by their @handle. */
export const actorName = (actor: { username: string; remote?: { handle: string } }): string =>
  actor.remote ? `@${actor.remote.handle}` : actor.username;

/**
 * "ana", "ana and theo", "ana, theo and sana", "ana, theo and 2 others": the newest people by name (someone on
 * another server by their handle, "@bob@mastodon.example"), and the rest counted when there are more than the
 * server names.
 */
export function actorsPhrase(
  actors: readonly { username: string; remote?: { handle: string } }[],
  actorCount: number,
): string {
  const names = actors.map(actorName);
  const total = Math.max(actorCount, names.length);
  if (names.length === 0) return total === 1 ? 'Someone' : `${total} people`;
  if (total > names.length || total > ACTOR_CAP) {
    const shown = names.slice(0, Math.min(names.length, ACTOR_CAP - 1));
    const others = total - shown.length;
    return `${shown.join(', ')} and ${others} ${others === 1 ? 'other' : 'others'}`;
  }
  if (names.length === 1) return names[0]!;
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The sentence of a group, e.g. "ana, theo and 2 others liked your post". */
export function describeNotification(notification: Notification): string {
  if (notification.kind === 'report-resolved') return notification.report?.text ?? 'A moderator reviewed your report.';
  // Inquiries (issue 42): a state change says which ("ana accepted your inquiry").
  if (notification.kind === 'inquiry-state') {
    return `${actorsPhrase(notification.actors, notification.actorCount)} ${inquiryStateAction(notification)}`;
  }
  const sentence = `${actorsPhrase(notification.actors, notification.actorCount)} ${notificationAction(notification.kind, notification.comment !== null)}`;
  // "ana added a work to Moth diaries" (issue 41): the series' title ends the sentence.
  if (notification.kind === 'series-work') return `${sentence} ${seriesTitle(notification)}`;
  // "sana added your work to Figure references" (issue 41): the collection's title ends it too.
  return notification.kind === 'collection-work' ? `${sentence} ${collectionTitle(notification)}` : sentence;
}

/** What an inquiry-state notification says the artist did (issue 42): "accepted your inquiry", … */
export function inquiryStateAction(notification: Notification): string {
  const state = notification.inquiry?.state;
  if (state === 'accepted' || state === 'declined') return `${state} your inquiry`;
  return state === 'done' ? 'marked your inquiry done' : 'answered your inquiry';
}

/** The title of a collection-work notification's collection ("a collection" once it is gone or private). */
export const collectionTitle = (notification: Notification): string => notification.collection?.title ?? 'a collection';

/** The title of a series-work notification's series ("a series" once it is gone). */
export const seriesTitle = (notification: Notification): string => notification.series?.title ?? 'a series';

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
