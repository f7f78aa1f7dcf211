import { t } from '@lingui/core/macro';
import { LOOKUP } from '@share-arts/contract';

/**
 * What typed in search names someone or something on another server (following out, issue 39), to look up
 * through `GET /api/federation/lookup` rather than search here: a handle (`@bob@pixelfed.example`,
 * `bob@pixelfed.example`) or a pasted http(s) address of a profile or a post. `host` is the server it names, as
 * the sentence "Look up … on {host}" shows it; `q` is what is sent (the server decides whether it is a person or
 * a work, and says so when it is neither).
 */
export type RemoteQuery =
  { kind: 'handle'; q: string; handle: string; host: string } | { kind: 'url'; q: string; url: string; host: string };

/**
 * A handle's user part: what Mastodon and Pixelfed allow in a username and a little more (the server checks it
 * against the WebFinger answer), without spaces, slashes or a second @.
 */
const HANDLE = /^@?([^\s@/?#:]+)@([^\s@/?#]+)$/u;
/** A host name (letters in any script, digits, hyphens, dots) and an optional port. */
const HOST =
  /^[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?(?:\.[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?)*(?::\d{1,5})?$/u;

/** `text` as a lookup on another server, or null when it is words to search for here. */
export function remoteQuery(text: string): RemoteQuery | null {
  const value = text.trim();
  if (!value || value.length > LOOKUP.queryMaxLength) return null;

  if (/^https?:\/\//i.test(value)) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return null;
    }
    // A bare server (https://pixelfed.example/) names nobody; an address with credentials is no profile.
    if (!url.hostname || url.username || url.password || (url.pathname === '/' && !url.search)) return null;
    return { kind: 'url', q: value, url: url.href, host: url.host };
  }

  const match = HANDLE.exec(value);
  if (!match) return null;
  const [, user, rawHost] = match as unknown as [string, string, string];
  const host = rawHost.toLowerCase();
  // A server has a dotted name (pixelfed.example) or a port (localhost:3000): "me@home" is words, not a handle.
  if (!HOST.test(host) || !(host.includes('.') || host.includes(':'))) return null;
  return { kind: 'handle', q: `@${user}@${host}`, handle: `${user}@${host}`, host };
}

/** The one sentence that offers the lookup: "Look up @bob@pixelfed.example on pixelfed.example". */
export function lookupLabel(query: RemoteQuery): string {
  const { host } = query;
  if (query.kind === 'handle') {
    const handle = query.handle;
    return t`Look up @${handle} on ${host}`;
  }
  return t`Look up this address on ${host}`;
}
