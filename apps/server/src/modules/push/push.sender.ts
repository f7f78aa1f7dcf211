import { createHash } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import webpush from 'web-push';
import { isPrivateAddress } from '../../lib/public-address.js';

/**
 * One push to one device (issue 44): the payload encrypted for it (aes128gcm, RFC 8291, by web-push), signed with
 * our VAPID key (RFC 8292: a JWT per push service, made once an hour), and POSTed to its push service, which must be
 * at a public address (the same guard as the fediverse's requests; every address the name resolves to is checked when
 * the connection is made, so a name cannot turn private between a check and the request).
 */

export interface VapidSettings {
  publicKey: string;
  privateKey: string;
  subject: string;
}

export interface PushMessage {
  /** The JSON the service worker reads. */
  payload: string;
  /** Seconds the push service keeps it for an offline device. */
  ttl: number;
  urgency: 'very-low' | 'low' | 'normal' | 'high';
  /** Replaces an undelivered push of the same topic at the push service (at most 32 URL-safe characters). */
  topic: string;
}

/** What a push service answered: delivered, gone (404/410: forget the subscription), refused, or unreachable. */
export type SendOutcome =
  | { result: 'delivered' }
  | { result: 'gone'; status: number }
  | { result: 'refused'; status: number; message: string }
  | { result: 'failed'; status?: number; message: string };

/** The endpoint of a subscription: https (http only where allowed), no user name, at most 1,024 characters. */
export function endpointProblem(endpoint: string, allowPrivateAddress: boolean): string | undefined {
  if (endpoint.length > 1024) return 'endpoint must be at most 1024 characters';
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'endpoint must be an absolute https address';
  }
  if (url.protocol !== 'https:' && !(allowPrivateAddress && url.protocol === 'http:')) {
    return 'endpoint must be an https address';
  }
  if (url.username || url.password) return 'endpoint must not carry a user name or password';
  if (url.hash) return 'endpoint must not have a #fragment';
  if (!allowPrivateAddress) {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) ? isPrivateAddress(host) : /^(localhost|.*\.localhost|.*\.local|.*\.internal)$/i.test(host)) {
      return 'endpoint must be a push service on a public address';
    }
  }
  return undefined;
}

/** A topic from a group's key: 32 URL-safe characters (RFC 8030 §5.4). */
export const topicOf = (groupKey: string) => createHash('sha256').update(groupKey).digest('base64url').slice(0, 32);

/** DNS lookups that refuse private, loopback and link-local addresses (unless allowed: tests and the benchmark). */
function guardedLookup(allowPrivateAddress: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const list = addresses;
      if (!allowPrivateAddress && (list.length === 0 || list.some(({ address }) => isPrivateAddress(address)))) {
        const refused = Object.assign(new Error(`${hostname} is not a public address`), { code: 'EPUBLICONLY' });
        return callback(refused, '', 0);
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

export function createPushSender({
  vapid,
  allowPrivateAddress,
  timeoutMs = 10_000,
}: {
  vapid: VapidSettings;
  allowPrivateAddress: boolean;
  timeoutMs?: number;
}) {
  const lookup = guardedLookup(allowPrivateAddress);
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 64, lookup } as http.AgentOptions),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 64, lookup } as https.AgentOptions),
  };
  /** The VAPID header per push service (its origin), renewed every hour (the JWT lasts 12 hours). */
  const headers = new Map<string, { value: string; until: number }>();

  function authorization(audience: string): string {
    const kept = headers.get(audience);
    if (kept && kept.until > Date.now()) return kept.value;
    const expiration = Math.floor(Date.now() / 1000) + 12 * 3600;
    const made = webpush.getVapidHeaders(
      audience,
      vapid.subject,
      vapid.publicKey,
      vapid.privateKey,
      'aes128gcm',
      expiration,
    );
    const value = String(made.Authorization);
    if (headers.size > 1000) headers.clear();
    headers.set(audience, { value, until: Date.now() + 3600_000 });
    return value;
  }

  function post(endpoint: URL, requestHeaders: Record<string, string | number>, body: Buffer | null) {
    return new Promise<{ status: number; text: string }>((resolve, reject) => {
      const client = endpoint.protocol === 'http:' ? http : https;
      const request = client.request(
        endpoint,
        {
          method: 'POST',
          headers: requestHeaders,
          agent: agents[endpoint.protocol as 'http:' | 'https:'],
          timeout: timeoutMs,
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            if (text.length < 2000) text += chunk;
          });
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text: text.slice(0, 2000) }));
          response.on('error', reject);
        },
      );
      request.on('timeout', () => request.destroy(new Error('the push service did not answer in time')));
      request.on('error', reject);
      request.end(body ?? undefined);
    });
  }

  return {
    publicKey: vapid.publicKey,
    async send(
      device: { endpoint: string; p256dh: string; auth: string; encoding?: 'aes128gcm' | 'aesgcm' },
      message: PushMessage,
    ): Promise<SendOutcome> {
      const problem = endpointProblem(device.endpoint, allowPrivateAddress);
      if (problem) return { result: 'gone', status: 0 };
      const endpoint = new URL(device.endpoint);
      let details: ReturnType<typeof webpush.generateRequestDetails>;
      try {
        details = webpush.generateRequestDetails(
          { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
          message.payload,
          device.encoding === 'aesgcm'
            ? // The older coding (draft 4) that Mastodon apps take unless they say `standard`: VAPID as
              // `Authorization: WebPush <JWT>` and `Crypto-Key: p256ecdsa=…`, made by web-push per push.
              {
                TTL: message.ttl,
                urgency: message.urgency,
                topic: message.topic,
                contentEncoding: 'aesgcm',
                vapidDetails: vapid,
              }
            : {
                TTL: message.ttl,
                urgency: message.urgency,
                topic: message.topic,
                headers: { Authorization: authorization(endpoint.origin) },
              },
        );
      } catch (error) {
        // Keys that cannot be encrypted for: the subscription can never be pushed.
        return { result: 'refused', status: 0, message: (error as Error).message };
      }
      try {
        const { status, text } = await post(endpoint, details.headers, (details.body as Buffer | null) ?? null);
        if (status >= 200 && status < 300) return { result: 'delivered' };
        if (status === 404 || status === 410) return { result: 'gone', status };
        // 429 and 5xx: try again later; other 4xx: this push will never be taken.
        if (status === 429 || status >= 500) return { result: 'failed', status, message: `${status} ${text}`.trim() };
        return { result: 'refused', status, message: `${status} ${text}`.trim() };
      } catch (error) {
        // A name that resolves to a private address: never to be reached (the subscription is forgotten).
        if ((error as { code?: string }).code === 'EPUBLICONLY') return { result: 'gone', status: 0 };
        return { result: 'failed', message: (error as Error).message };
      }
    },
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}

export type PushSender = ReturnType<typeof createPushSender>;
