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
import { jpegFor, mediaUrl } from '../media/index.js';
import { endpointProblem, topicOf, type PushMessage } from './push.sender.js';
import {
  deleteSubscription,
  renewSubscription,
  selectByEndpoint,
  selectSubscription,
  updateKinds,
  upsertSubscription,
  type GroupItemRow,
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

export function createPushService({ db, allowPrivateAddress }: { db: Db; allowPrivateAddress: boolean }) {
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

/** A work named in a push: the first line of its words, at most 40 characters, in quotes (“…”). */
function workTitle(content: string | null): string {
  const line =
    (content ?? '')
      .split('\n')
      .map((text) => text.trim())
      .find(Boolean) ?? '';
  if (!line) return 'your work';
  return `“${line.length > 40 ? `${line.slice(0, 39).trimEnd()}…` : line}”`;
}

const excerpt = (text: string | null, max = 140) => {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
};

/** "Ana", "Ana and Bo", "Ana and 4 others". */
function whoOf(name: string, actors: number): string {
  if (actors <= 1) return name;
  return `${name} and ${actors - 1} ${actors - 1 === 1 ? 'other' : 'others'}`;
}

/** The words, picture and page of a group's push (items newest first, with the group's total and actors). */
export function composePush(
  groupKey: string,
  items: GroupItemRow[],
): { message: PushMessage; kind: PushKind } | undefined {
  const newest = items[0];
  const kind = pushKindOfGroup(groupKey);
  if (!newest || !kind) return undefined;
  const who = whoOf(newest.actor_name, newest.actors);
  const work = workTitle(newest.post_content);
  const postUrl = newest.post_id ? `/posts/${newest.post_id}` : '/notifications';
  let title: string;
  let body = '';
  let url = postUrl;
  let urgency: PushMessage['urgency'] = 'normal';
  switch (groupKey.split(':')[0]) {
    case 'like':
      title = `${who} liked ${work}`;
      break;
    case 'upvote':
      title = `${who} liked your comment on ${work}`;
      body = excerpt(newest.comment_content);
      break;
    case 'comment':
      title = newest.total > 1 ? `${who} commented on ${work}` : `${newest.actor_name} commented on ${work}`;
      body = excerpt(newest.comment_content);
      break;
    case 'mention':
      title = `${who} mentioned you in ${work === 'your work' ? 'a work' : work}`;
      body = excerpt(newest.comment_content ?? newest.post_content);
      break;
    case 'follow':
      title = `${who} followed you`;
      url = newest.actors <= 1 && newest.actor_username ? `/${newest.actor_username}` : '/notifications';
      break;
    default: {
      urgency = 'high';
      url = newest.inquiry_id ? `/inquiries/${newest.inquiry_id}` : '/inquiries';
      if (newest.kind === 'inquiry') title = `${newest.actor_name} sent you an inquiry`;
      else if (newest.kind === 'inquiry-state') {
        const state = { accepted: 'accepted', declined: 'declined', done: 'marked done', open: 'reopened' }[
          newest.inquiry_state ?? 'open'
        ];
        title = `${newest.actor_name} ${state ?? 'updated'} your inquiry`;
      } else
        title =
          newest.total > 1
            ? `${newest.total} new messages from ${newest.actor_name}`
            : `New message from ${newest.actor_name}`;
    }
  }
  const picture = newest.post_pic ? jpegFor(newest.post_pic, 320) : undefined;
  const payload: PushPayload = {
    title,
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
  };
}
