import type { User } from '@share-arts/contract';
import { splitHandle } from '../../../lib/handle';
import { httpUrl } from '../../../lib/safe-url';

/** Where someone on another server lives: their server's name, and their profile there when it is an http(s) address. */
export interface RemoteHome {
  host: string;
  url?: string;
}

/**
 * Someone on another server (following out, issue 39): "View on pixelfed.example" and "Older works are on
 * pixelfed.example" link to their profile there (an address that is not http(s) is never put in a link, and the
 * server is then named by their handle). Null for an account here.
 */
export function remoteHome(user: Pick<User, 'remote'>): RemoteHome | null {
  if (!user.remote) return null;
  const url = httpUrl(user.remote.url);
  if (url) return { url, host: new URL(url).host };
  return { host: splitHandle(user.remote.handle).host ?? user.remote.handle };
}
