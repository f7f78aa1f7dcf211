import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPrivateAddress } from '../../lib/public-address.js';
import { signRequest, type DocumentLoader, type generateCryptoKeyPair } from '@fedify/fedify';

/** Fedify's key pair type (Web Crypto's, whichever of Node's or the DOM's types the build uses). */
type KeyPair = Awaited<ReturnType<typeof generateCryptoKeyPair>>;

/**
 * What following out (issue 39) fetches from other servers, outside an inbox's own fetches: a person's actor, a
 * Note, an outbox page (JSON, signed by the instance actor so that a server in Mastodon's secure mode answers), and
 * pictures. Each fetch goes to a public address only (outside tests: a name that resolves to a private, loopback or
 * link-local address is refused, every redirect checked again), within a time limit, and reads at most a size
 * limit of body (a larger answer is refused before it is all read): nothing another server answers can fill the
 * memory or reach this server's network.
 */

/** A JSON document's most: a Mastodon actor or Note is a few kilobytes, an outbox page of 20 a few hundred. */
export const MAX_DOCUMENT_BYTES = 1024 * 1024;
/** How long a document may take. */
export const DOCUMENT_TIMEOUT_MS = 10_000;
/** Redirects followed (each to a public address). */
const MAX_REDIRECTS = 3;

/** A remote server that did not answer (a network failure, a timeout, a 5xx): the caller says so (502). */
export class RemoteUnreachable extends Error {}
/** A remote server's answer that is refused (not found, too large, not what was asked for). */
export class RemoteRefused extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export { isPrivateAddress } from '../../lib/public-address.js';

export interface FetchRules {
  /** Tests only: loopback and http allowed. */
  allowPrivateAddress: boolean;
}

/** Refuses a URL this server may not fetch: not https (http in tests), or a host at a private address. */
async function checkUrl(url: URL, rules: FetchRules): Promise<void> {
  if (url.protocol !== 'https:' && !(rules.allowPrivateAddress && url.protocol === 'http:')) {
    throw new RemoteRefused(`only https addresses are fetched (${url.protocol})`);
  }
  if (url.username || url.password) throw new RemoteRefused('an address with a user name is not fetched');
  if (rules.allowPrivateAddress) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string }[];
  try {
    addresses = isIP(host) ? [{ address: host }] : await lookup(host, { all: true, verbatim: true });
  } catch {
    throw new RemoteUnreachable(`${url.host} has no address`);
  }
  if (addresses.length === 0 || addresses.some(({ address }) => isPrivateAddress(address))) {
    throw new RemoteRefused(`${url.host} is not a public address`);
  }
}

/** Reads at most `max` bytes of a body; a larger one is refused (its Content-Length first, then as it comes). */
async function readLimited(response: Response, max: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > max) {
    await response.body?.cancel();
    throw new RemoteRefused(`it is larger than ${Math.round(max / 1024 / 1024)} MB`);
  }
  if (!response.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel();
      throw new RemoteRefused(`it is larger than ${Math.round(max / 1024 / 1024)} MB`);
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

/** The instance actor's key, which signs document fetches. */
export interface Signer {
  keyId: URL;
  privateKey: KeyPair['privateKey'];
}

/**
 * GETs `url` within the rules: each hop checked, redirects followed by hand (at most MAX_REDIRECTS), signed by
 * `signer` when given (each hop: its signature names its URL), at most `maxBytes` read in `timeoutMs`. A network
 * failure, a timeout or a 5xx is RemoteUnreachable; another status or a refused address, RemoteRefused.
 */
export async function safeFetch(
  url: URL,
  options: FetchRules & { accept: string; maxBytes: number; timeoutMs: number; signer?: Signer },
): Promise<{ url: URL; body: Buffer; contentType: string }> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let current = url;
  for (let hop = 0; ; hop += 1) {
    await checkUrl(current, options);
    let request = new Request(current, { headers: { accept: options.accept }, redirect: 'manual', signal });
    if (options.signer) request = await signRequest(request, options.signer.privateKey, options.signer.keyId);
    let response: Response;
    try {
      response = await fetch(request, { redirect: 'manual', signal });
    } catch {
      throw new RemoteUnreachable(`${current.host} did not answer`);
    }
    if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
      await response.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw new RemoteRefused('too many redirects');
      current = new URL(response.headers.get('location')!, current);
      continue;
    }
    if (response.status >= 500) {
      await response.body?.cancel();
      throw new RemoteUnreachable(`${current.host} answered ${response.status}`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new RemoteRefused(`${current.host} answered ${response.status}`, response.status);
    }
    try {
      const body = await readLimited(response, options.maxBytes);
      return { url: current, body, contentType: response.headers.get('content-type') ?? '' };
    } catch (error) {
      if (error instanceof RemoteRefused) throw error;
      throw new RemoteUnreachable(`${current.host} did not send all of it in time`);
    }
  }
}

const AP_ACCEPT = 'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams"';

/**
 * A Fedify document loader through safeFetch: JSON-LD documents (an actor, a Note, a collection page) signed by the
 * instance actor, each at most MAX_DOCUMENT_BYTES in DOCUMENT_TIMEOUT_MS. JSON-LD contexts are read by Fedify's own
 * context loader (preloaded), not by this.
 */
export function limitedLoader(rules: FetchRules, signer: () => Promise<Signer | undefined>): DocumentLoader {
  return async (href: string) => {
    const { url, body } = await safeFetch(new URL(href), {
      ...rules,
      accept: AP_ACCEPT,
      maxBytes: MAX_DOCUMENT_BYTES,
      timeoutMs: DOCUMENT_TIMEOUT_MS,
      signer: await signer(),
    });
    let document: unknown;
    try {
      document = JSON.parse(body.toString('utf8'));
    } catch {
      throw new RemoteRefused(`${url.host} did not answer JSON`);
    }
    return { contextUrl: null, documentUrl: url.href, document };
  };
}
