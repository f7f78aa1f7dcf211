import { Type, type Static } from 'typebox';

/**
 * Web Push (issue 44, docs/push.md). Routes, all under /api:
 *
 * - `GET /push/key` → `PushKey`: the server's VAPID public key, for `pushManager.subscribe`.
 * - `PUT /push/subscription` `PushSubscriptionBody` → `PushSubscriptionState` (signed in): this session's device is
 *   subscribed (or its subscription replaced), or only its kinds changed (`kinds` alone, once subscribed).
 * - `GET /push/subscription` → `PushSubscriptionState`: this session's device's subscription, if any.
 * - `DELETE /push/subscription` → 204: this device is not pushed any more. Logging out and ending the session do the
 *   same on the server.
 * - `POST /push/renew` `PushRenewBody` → 204 (no token: the service worker's `pushsubscriptionchange`): the browser
 *   replaced the subscription; the old one is proved by its endpoint and auth secret. 404 when the server has none.
 */

/** The kinds of notification a device may be pushed. */
export const PUSH_KINDS = ['follows', 'likes', 'comments', 'mentions', 'inquiries'] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

export const PushKindSchema = Type.Unsafe<PushKind>({
  type: 'string',
  enum: PUSH_KINDS,
  description: 'follows, likes (and boosts, comment likes), comments, mentions, inquiries (new ones, messages, states)',
});

export const PushKey = Type.Object({
  publicKey: Type.String({
    description: "The VAPID public key (base64url): pushManager.subscribe's applicationServerKey",
  }),
});
export type PushKey = Static<typeof PushKey>;

export const PushSubscriptionBody = Type.Object(
  {
    endpoint: Type.Optional(
      Type.String({
        maxLength: 4096,
        description: "The push service's https address for this device (PushSubscription.endpoint)",
      }),
    ),
    keys: Type.Optional(
      Type.Object(
        {
          p256dh: Type.String({ maxLength: 4096, description: "The device's P-256 public key, base64url" }),
          auth: Type.String({ maxLength: 4096, description: 'The 16-byte authentication secret, base64url' }),
        },
        { additionalProperties: true },
      ),
    ),
    expirationTime: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
    kinds: Type.Optional(
      Type.Array(Type.String({ maxLength: 32 }), {
        maxItems: 10,
        description: 'The kinds pushed (all when left out on a new subscription)',
      }),
    ),
  },
  { description: 'PushSubscription.toJSON() with the kinds to push; or kinds alone to change them' },
);
export type PushSubscriptionBody = Static<typeof PushSubscriptionBody>;

export const PushRenewBody = Type.Object({
  previous: Type.Object({
    endpoint: Type.String({ maxLength: 4096, description: 'The old subscription’s endpoint' }),
    auth: Type.String({ maxLength: 4096, description: 'The old subscription’s auth secret, base64url' }),
  }),
  endpoint: Type.String({ maxLength: 4096, description: 'The new subscription’s endpoint' }),
  keys: Type.Object({ p256dh: Type.String({ maxLength: 4096 }), auth: Type.String({ maxLength: 4096 }) }),
});
export type PushRenewBody = Static<typeof PushRenewBody>;

export const PushSubscriptionState = Type.Object({
  subscribed: Type.Boolean({ description: "Whether this session's device is subscribed" }),
  endpoint: Type.Union([Type.String(), Type.Null()]),
  kinds: Type.Array(PushKindSchema, {
    maxItems: PUSH_KINDS.length,
    description: 'The kinds pushed (all kinds when not subscribed: the defaults)',
  }),
});
export type PushSubscriptionState = Static<typeof PushSubscriptionState>;

/** What a push carries to the service worker (encrypted by the push service's protocol, RFC 8291). */
export interface PushPayload {
  title: string;
  body: string;
  /** The page to open on a click (same origin, a path). */
  url: string;
  /** Replaces the device's earlier notification of the same group (likes of one work, …). */
  tag: string;
  kind: PushKind;
  /** The work's picture (its small variant), where there is one. */
  image?: string;
  /** The actor's photo. */
  icon?: string;
  /** How many notifications the push gathers. */
  count: number;
}
