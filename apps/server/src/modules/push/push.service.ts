import { timingSafeEqual } from 'node:crypto';
import {
  PUSH_KINDS,
  type PushKind,
  type PushPayload,
  type PushRenewBody,
  type PushSubscriptionBody,
  type PushSubscriptionState,
} from '@share-arts/contract';
import type { Db } from '../../db/client.js';
import { HttpError } from '../../lib/http-error.js';
import { format, mailLocale, type Locale } from '../../lib/i18n.js';
import { jpegFor, mediaUrl } from '../media/index.js';
import { endpointProblem, topicOf, type PushMessage } from './push.sender.js';
import type { TokenSeal } from './push.token-seal.js';
import {
  deleteSubscription,
  renewSubscription,
  selectByEndpoint,
  selectSubscription,
  updateKinds,
  upsertSubscription,
  updateApp,
  type AppPolicy,
  type AppSettings,
  type GroupItemRow,
  type SubscriptionRow,
} from './push.sql.js';

/** The clear 400s of a bad subscription (issue 44). */
export const PUSH_ERRORS = {
  session: 'This sign-in has no session: sign in again to turn on notifications on this device.',
  endpoint: 'endpoint is required: send the PushSubscription (endpoint and keys) from pushManager.subscribe.',
  keys: 'keys.p256dh and keys.auth are required: send the PushSubscription as PushSubscription.toJSON() gives it.',
  p256dh: "keys.p256dh must be the device's P-256 public key: 65 bytes (uncompressed, starting 0x04) in base64url.",
  auth: 'keys.auth must be the 16-byte authentication secret in base64url.',
  kinds: `kinds must list only: ${PUSH_KINDS.join(', ')}.`,
  notSubscribed: 'This device is not subscribed yet: send its endpoint and keys first.',
  unknownPrevious: 'No subscription here has that endpoint and secret: subscribe again from the notifications page.',
} as const;

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** The bytes of a base64url (or base64) key, or undefined when it is not one. */
function keyBytes(text: string): Buffer | undefined {
  const normal = text.replace(/\+/g, '-').replace(/\//g, '_');
  if (!BASE64URL.test(normal)) return undefined;
  return Buffer.from(normal.replace(/=+$/, ''), 'base64url');
}

function kindsOf(kinds: string[] | undefined): PushKind[] | undefined {
  if (kinds === undefined) return undefined;
  const known = new Set<string>(PUSH_KINDS);
  if (kinds.some((kind) => !known.has(kind))) throw new HttpError(400, PUSH_ERRORS.kinds);
  return PUSH_KINDS.filter((kind) => kinds.includes(kind));
}

const stateOf = (row: { endpoint: string; kinds: PushKind[] } | undefined): PushSubscriptionState =>
  row
    ? { subscribed: true, endpoint: row.endpoint, kinds: PUSH_KINDS.filter((kind) => row.kinds.includes(kind)) }
    : { subscribed: false, endpoint: null, kinds: [...PUSH_KINDS] };

export function createPushService({
  db,
  allowPrivateAddress,
  seal,
}: {
  db: Db;
  allowPrivateAddress: boolean;
  seal: TokenSeal;
}) {
  /** A subscription's endpoint and keys, checked (clear 400s), the keys in base64url. */
  function checkedDevice(endpoint: string, keys: { p256dh?: unknown; auth?: unknown } | undefined) {
    const problem = endpointProblem(endpoint, allowPrivateAddress);
    if (problem) throw new HttpError(400, problem.charAt(0).toUpperCase() + problem.slice(1) + '.');
    if (!keys || typeof keys.p256dh !== 'string' || typeof keys.auth !== 'string') {
      throw new HttpError(400, PUSH_ERRORS.keys);
    }
    const p256dh = keyBytes(keys.p256dh);
    if (!p256dh || p256dh.length !== 65 || p256dh[0] !== 0x04) throw new HttpError(400, PUSH_ERRORS.p256dh);
    const auth = keyBytes(keys.auth);
    if (!auth || auth.length !== 16) throw new HttpError(400, PUSH_ERRORS.auth);
    return { endpoint, p256dh: p256dh.toString('base64url'), auth: auth.toString('base64url') };
  }

  return {
    /**
     * The browser replaced a subscription (the worker's `pushsubscriptionchange`, with no token): the old one is
     * proved by its endpoint and its auth secret, which only the browser and this server know.
     */
    async renew(body: PushRenewBody): Promise<void> {
      const device = checkedDevice(body.endpoint, body.keys);
      const kept =
        body.previous.endpoint.length <= 1024 ? await selectByEndpoint(db, body.previous.endpoint) : undefined;
      const given = keyBytes(body.previous.auth);
      const known = kept ? Buffer.from(kept.auth, 'base64url') : undefined;
      if (!kept || !given || !known || given.length !== known.length || !timingSafeEqual(given, known)) {
        throw new HttpError(404, PUSH_ERRORS.unknownPrevious);
      }
      await renewSubscription(db, kept.id, device);
    },

    async get(sessionId: string | null): Promise<PushSubscriptionState> {
      if (!sessionId) return stateOf(undefined);
      return stateOf(await selectSubscription(db, sessionId));
    },

    /** Subscribes this session's device (endpoint and keys), or changes its kinds (kinds alone). */
    async put(userId: string, sessionId: string | null, body: PushSubscriptionBody): Promise<PushSubscriptionState> {
      if (!sessionId) throw new HttpError(400, PUSH_ERRORS.session);
      const kinds = kindsOf(body.kinds);
      if (body.endpoint === undefined) {
        if (body.keys !== undefined) throw new HttpError(400, PUSH_ERRORS.endpoint);
        if (kinds === undefined) throw new HttpError(400, PUSH_ERRORS.endpoint);
        const row = await updateKinds(db, sessionId, kinds);
        if (!row) throw new HttpError(400, PUSH_ERRORS.notSubscribed);
        return stateOf(row);
      }
      const device = checkedDevice(body.endpoint, body.keys);
      const row = await upsertSubscription(db, { userId, sessionId, ...device, kinds: kinds ?? [...PUSH_KINDS] });
      if (!row) throw new HttpError(400, PUSH_ERRORS.session);
      return stateOf(row);
    },

    async remove(sessionId: string | null): Promise<void> {
      if (sessionId) await deleteSubscription(db, sessionId);
    },

    /**
     * A Mastodon app's subscription (issue 45), one per token (its session): subscribes it (replacing one it had),
     * the app's token sealed for its pushes' payload. `kinds` are what its alerts map to.
     */
    async putApp(
      userId: string,
      sessionId: string | null,
      subscription: { endpoint: string; keys: { p256dh?: unknown; auth?: unknown } | undefined },
      app: Omit<AppSettings, 'appToken'> & { kinds: PushKind[]; token: string | undefined },
    ): Promise<SubscriptionRow> {
      if (!sessionId) throw new HttpError(400, PUSH_ERRORS.session);
      const device = checkedDevice(subscription.endpoint, subscription.keys);
      const { kinds, token, ...settings } = app;
      const row = await upsertSubscription(db, {
        userId,
        sessionId,
        ...device,
        kinds,
        app: { ...settings, appToken: token ? seal.seal(token) : null },
      });
      if (!row) throw new HttpError(400, PUSH_ERRORS.session);
      return row;
    },

    /** A Mastodon app's subscription (undefined: none, or the token's session has the web app's). */
    async getApp(sessionId: string | null): Promise<SubscriptionRow | undefined> {
      if (!sessionId) return undefined;
      const row = await selectSubscription(db, sessionId);
      return row?.client === 'mastodon' ? row : undefined;
    },

    async updateApp(
      sessionId: string | null,
      change: { kinds?: PushKind[]; alerts?: string[]; policy?: AppPolicy },
    ): Promise<SubscriptionRow | undefined> {
      return sessionId ? updateApp(db, sessionId, change) : undefined;
    },
  };
}

export type PushService = ReturnType<typeof createPushService>;

// ── What a push says ───────────────────────────────────────────────────────────────────────────────────────

/** The push kind of a group key's notification kind (`like:<postId>` → likes). */
export function pushKindOfGroup(groupKey: string): PushKind | undefined {
  switch (groupKey.split(':')[0]) {
    case 'like':
    case 'upvote':
      return 'likes';
    case 'comment':
      return 'comments';
    case 'mention':
      return 'mentions';
    case 'follow':
      return 'follows';
    case 'inquiry':
      return 'inquiries';
    default:
      return undefined;
  }
}

/**
 * The words of a push (issue 44), as ICU messages, in the reader's language (`users.language`, else English) as the
 * mails are: `{name}` is the newest person's name, `{others}` how many other people the group gathered, `{work}` the
 * work as `workQuoted` (or `yourWork`/`aWork` when it has no words).
 */
export const PUSH_MESSAGES = {
  someone: 'Someone',
  yourWork: 'your work',
  aWork: 'a work',
  workQuoted: '“{title}”',
  liked:
    '{others, plural, =0 {{name} liked {work}} one {{name} and # other liked {work}} other {{name} and # others liked {work}}}',
  likedComment:
    '{others, plural, =0 {{name} liked your comment on {work}} one {{name} and # other liked your comment on {work}} other {{name} and # others liked your comment on {work}}}',
  commented:
    '{others, plural, =0 {{name} commented on {work}} one {{name} and # other commented on {work}} other {{name} and # others commented on {work}}}',
  mentioned:
    '{others, plural, =0 {{name} mentioned you in {work}} one {{name} and # other mentioned you in {work}} other {{name} and # others mentioned you in {work}}}',
  followed:
    '{others, plural, =0 {{name} followed you} one {{name} and # other followed you} other {{name} and # others followed you}}',
  inquiry: '{name} sent you an inquiry',
  inquiryAccepted: '{name} accepted your inquiry',
  inquiryDeclined: '{name} declined your inquiry',
  inquiryDone: '{name} marked your inquiry done',
  inquiryReopened: '{name} reopened your inquiry',
  inquiryUpdated: '{name} updated your inquiry',
  inquiryMessages: '{count, plural, one {New message from {name}} other {# new messages from {name}}}',
} as const;

/** A work named in a push: the first line of its words, at most 40 characters, quoted; undefined without words. */
function workTitle(locale: Locale, content: string | null): string | undefined {
  const line =
    (content ?? '')
      .split('\n')
      .map((text) => text.trim())
      .find(Boolean) ?? '';
  if (!line) return undefined;
  return format(locale, PUSH_MESSAGES.workQuoted, {
    title: line.length > 40 ? `${line.slice(0, 39).trimEnd()}…` : line,
  });
}

const excerpt = (text: string | null, max = 140) => {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
};

/** The words, picture and page of a group's push (items newest first, with the group's total and actors). */
export function composePush(groupKey: string, items: GroupItemRow[]): ComposedPush | undefined {
  const newest = items[0];
  const kind = pushKindOfGroup(groupKey);
  if (!newest || !kind) return undefined;
  const locale = mailLocale(newest.recipient_language);
  const name = newest.actor_name ?? format(locale, PUSH_MESSAGES.someone);
  const others = Math.max(0, newest.actors - 1);
  const title = workTitle(locale, newest.post_content);
  const work = title ?? format(locale, PUSH_MESSAGES.yourWork);
  const words = (message: string, values: Record<string, unknown> = {}) =>
    format(locale, message, { name, others, work, ...values });
  const postUrl = newest.post_id ? `/posts/${newest.post_id}` : '/notifications';
  let heading: string;
  let body = '';
  let url = postUrl;
  let urgency: PushMessage['urgency'] = 'normal';
  switch (groupKey.split(':')[0]) {
    case 'like':
      heading = words(PUSH_MESSAGES.liked);
      break;
    case 'upvote':
      heading = words(PUSH_MESSAGES.likedComment);
      body = excerpt(newest.comment_content);
      break;
    case 'comment':
      heading = words(PUSH_MESSAGES.commented, { others: newest.total > 1 ? others : 0 });
      body = excerpt(newest.comment_content);
      break;
    case 'mention':
      heading = words(PUSH_MESSAGES.mentioned, { work: title ?? format(locale, PUSH_MESSAGES.aWork) });
      body = excerpt(newest.comment_content ?? newest.post_content);
      break;
    case 'follow':
      heading = words(PUSH_MESSAGES.followed);
      url = newest.actors <= 1 && newest.actor_username ? `/${newest.actor_username}` : '/notifications';
      break;
    default: {
      urgency = 'high';
      url = newest.inquiry_id ? `/inquiries/${newest.inquiry_id}` : '/inquiries';
      if (newest.kind === 'inquiry') heading = words(PUSH_MESSAGES.inquiry);
      else if (newest.kind === 'inquiry-state') {
        const state = {
          accepted: PUSH_MESSAGES.inquiryAccepted,
          declined: PUSH_MESSAGES.inquiryDeclined,
          done: PUSH_MESSAGES.inquiryDone,
          open: PUSH_MESSAGES.inquiryReopened,
        }[newest.inquiry_state ?? 'open'];
        heading = words(state ?? PUSH_MESSAGES.inquiryUpdated);
      } else heading = words(PUSH_MESSAGES.inquiryMessages, { count: newest.total });
    }
  }
  const picture = newest.post_pic ? jpegFor(newest.post_pic, 320) : undefined;
  const payload: PushPayload = {
    title: heading,
    body,
    url,
    tag: groupKey,
    kind,
    count: newest.total,
    ...(picture ? { image: mediaUrl(picture.file) } : {}),
    ...(newest.actor_photo ? { icon: newest.actor_photo } : {}),
  };
  return {
    kind,
    message: {
      payload: JSON.stringify(payload),
      ttl: urgency === 'high' ? 4 * 86_400 : 86_400,
      urgency,
      topic: topicOf(groupKey),
    },
    item: newest,
    locale,
    title: heading,
    body: body || excerpt(newest.post_content),
  };
}

export interface ComposedPush {
  kind: PushKind;
  /** The web app's push. */
  message: PushMessage;
  /** The group's newest notification, and the words in the reader's language (for a Mastodon app's push). */
  item: GroupItemRow;
  locale: Locale;
  title: string;
  body: string;
}

/** Mastodon's notification type of each of our kinds that Mastodon has (the Mastodon API's notifications agree). */
const MASTODON_TYPE: Record<string, string> = {
  like: 'favourite',
  upvote: 'favourite',
  comment: 'mention',
  mention: 'mention',
  follow: 'follow',
  boost: 'reblog',
};

/**
 * A Mastodon app's push (issue 45): Mastodon's payload (`access_token`, `preferred_locale`, `notification_id`,
 * `notification_type`, `title`, `body`, `icon`), which the app decrypts and shows, or fetches the notification by its
 * id with the token. Undefined when the device should not be pushed this one: a kind Mastodon does not have, or one
 * its policy leaves out (`followed`: from people the person follows; `follower`: from people who follow them).
 */
export function composeAppPush(
  composed: ComposedPush,
  device: { policy: AppPolicy; app_token: string | null },
  { origin, token }: { origin: string; token: string | undefined },
): PushMessage | undefined {
  const { item } = composed;
  const type = MASTODON_TYPE[item.kind];
  if (!type) return undefined;
  if (device.policy === 'none') return undefined;
  if (device.policy === 'followed' && !item.actor_followed) return undefined;
  if (device.policy === 'follower' && !item.actor_follows) return undefined;
  const absolute = (url: string) =>
    /^https?:\/\//.test(url) ? url : `${origin}${url.startsWith('/') ? '' : '/'}${url}`;
  const payload = {
    access_token: token ?? '',
    preferred_locale: composed.locale,
    notification_id: item.id,
    notification_type: type,
    icon: absolute(item.actor_photo || '/favicon.svg'),
    title: composed.title,
    body: composed.body,
  };
  return { ...composed.message, payload: JSON.stringify(payload) };
}
