import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PushKind } from '@share-arts/contract';
import { recordNotFound, validationFailed } from './errors.js';
import type { MastodonDeps } from './mastodon-api.deps.js';
import { flag, object, paramsOf, text, type Params } from './mastodon-api.params.js';
import { MASTODON_ROUTE } from './params.js';

/** The refusals of the push routes, in Mastodon's words where Mastodon has them. */
export const MASTO_PUSH_ERRORS = {
  subscription: 'param is missing or the value is empty: subscription',
  policy: 'data[policy] must be one of all, followed, follower, none',
} as const;

/** The alerts Mastodon defines (WebPushSubscription's `alerts`), each answered true or false. */
const ALERTS = [
  'mention',
  'status',
  'reblog',
  'follow',
  'follow_request',
  'favourite',
  'poll',
  'update',
  'admin.sign_up',
  'admin.report',
] as const;
const POLICIES = ['all', 'followed', 'follower', 'none'] as const;
type Policy = (typeof POLICIES)[number];

/**
 * The push kinds an app's alerts turn on: `mention` is a mention or a comment on one's work (a reply, as the
 * notifications API types it), `favourite` and `reblog` are likes (a remote boost counts as one), `follow` a follow.
 * `status`, `follow_request`, `poll`, `update` and the admin alerts are kept and answered back; nothing here sends them.
 */
function kindsOf(alerts: string[]): PushKind[] {
  const kinds = new Set<PushKind>();
  if (alerts.includes('mention')) kinds.add('mentions').add('comments');
  if (alerts.includes('favourite') || alerts.includes('reblog')) kinds.add('likes');
  if (alerts.includes('follow')) kinds.add('follows');
  return [...kinds];
}

/** `data[alerts]`: the alerts turned on, starting from `current` (a create starts from none, as Mastodon does). */
function alertsOf(data: Params | undefined, current: readonly string[]): string[] | undefined {
  const given = data ? object(data, 'alerts') : undefined;
  if (!given) return undefined;
  const on = new Set(current);
  for (const alert of ALERTS) {
    const value = flag(given, alert);
    if (value === true) on.add(alert);
    else if (value === false) on.delete(alert);
  }
  return ALERTS.filter((alert) => on.has(alert));
}

function policyOf(data: Params | undefined): Policy | undefined {
  const policy = data ? text(data, 'policy') : undefined;
  if (policy === undefined) return undefined;
  if (!(POLICIES as readonly string[]).includes(policy)) throw validationFailed(MASTO_PUSH_ERRORS.policy);
  return policy as Policy;
}

/** The token the app called with (Mastodon's payload carries it back to the app). */
function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

interface Row {
  id: string;
  endpoint: string;
  policy: string;
  alerts: string[] | null;
  encoding: string;
}

/**
 * Mastodon's push subscriptions (https://docs.joinmastodon.org/methods/push/, issue 45): a Mastodon app subscribes
 * its token's device (one subscription per token, deleted with the token: it is the session's, as a browser's is),
 * chooses the alerts and whose notifications (`policy`), and is pushed Mastodon's payload, VAPID-signed with the
 * server's key and encrypted with `aes128gcm` when it says `standard`, else the older `aesgcm` Mastodon apps take.
 * The push module keeps and sends them; it is wired after this module, so its service is found on the app when a
 * request comes (`request.server.push.apps`).
 */
export function pushRoutes(app: FastifyInstance, { requireScopes }: MastodonDeps): void {
  const push = (request: FastifyRequest) => request.server.push;

  const entity = (request: FastifyRequest, row: Row) => {
    const on = new Set(row.alerts ?? []);
    return {
      id: row.id,
      endpoint: row.endpoint,
      standard: row.encoding === 'aes128gcm',
      alerts: Object.fromEntries(ALERTS.map((alert) => [alert, on.has(alert)])),
      policy: row.policy,
      server_key: push(request).publicKey,
    };
  };

  const guard = { schema: MASTODON_ROUTE, preHandler: requireScopes('push') };

  app.post('/v1/push/subscription', guard, async (request) => {
    const { params } = await paramsOf(request);
    const subscription = object(params, 'subscription');
    const endpoint = subscription ? text(subscription, 'endpoint') : undefined;
    if (!subscription || !endpoint) throw validationFailed(MASTO_PUSH_ERRORS.subscription);
    const keys = object(subscription, 'keys');
    const data = object(params, 'data');
    const alerts = alertsOf(data, []) ?? [];
    const row = await push(request).apps.putApp(
      request.userId!,
      request.sessionId,
      { endpoint, keys: keys ? { p256dh: keys.p256dh, auth: keys.auth } : undefined },
      {
        kinds: kindsOf(alerts),
        alerts,
        policy: policyOf(data) ?? 'all',
        encoding: flag(subscription, 'standard') ? 'aes128gcm' : 'aesgcm',
        token: tokenOf(request),
      },
    );
    return entity(request, row);
  });

  app.get('/v1/push/subscription', guard, async (request) => {
    const row = await push(request).apps.getApp(request.sessionId);
    if (!row) throw recordNotFound();
    return entity(request, row);
  });

  app.put('/v1/push/subscription', guard, async (request) => {
    const apps = push(request).apps;
    const current = await apps.getApp(request.sessionId);
    if (!current) throw recordNotFound();
    const { params } = await paramsOf(request);
    const data = object(params, 'data');
    const alerts = alertsOf(data, current.alerts ?? []);
    const policy = policyOf(data);
    const row = await apps.updateApp(request.sessionId, {
      ...(alerts ? { alerts, kinds: kindsOf(alerts) } : {}),
      ...(policy ? { policy } : {}),
    });
    if (!row) throw recordNotFound();
    return entity(request, row);
  });

  app.delete('/v1/push/subscription', guard, async (request) => {
    if (await push(request).apps.getApp(request.sessionId)) await push(request).apps.remove(request.sessionId);
    return {};
  });
}
