import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { Globe } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { displayUrl } from '../../../lib/safe-url';
import { signInPath } from '../../../lib/session';
import type { useRemoteLookup } from '../api/lookup';
import { lookupLabel, type RemoteQuery } from '../lib/remote-query';
import styles from './remote-lookup.module.css';

/** What the view reads of the page's lookup (the page runs it: Enter in its field runs it too). */
export type LookupState = Pick<
  ReturnType<typeof useRemoteLookup>,
  'variables' | 'isPending' | 'isError' | 'error' | 'mutate'
>;

export const SIGN_IN_TO_LOOK_UP = msg`Sign in to look up people on other servers.`;

/** What a failed lookup says: the server's sentence (what to type, nobody there, their server silent, …). */
function failure(error: unknown): { text: string; signIn: boolean } {
  if (error instanceof ApiError && error.status === 401) return { text: i18n._(SIGN_IN_TO_LOOK_UP), signIn: true };
  return { text: errorMessage(error), signIn: false };
}

/**
 * The search page's one result for a handle or an address on another server: "Look up @bob@pixelfed.example on
 * pixelfed.example". Looking shows "Looking…"; the answer opens the person's profile or the work here; a failure
 * is said in place, the text kept in the search field above for another try.
 */
export function RemoteLookup({ query, lookup }: { query: RemoteQuery; lookup: LookupState }) {
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  // The state of the lookup of this text only (another text typed since is a new offer).
  const mine = lookup.variables === query.q;
  const looking = mine && lookup.isPending;
  const failed = mine && lookup.isError ? failure(lookup.error) : null;

  return (
    <div className={styles.lookup}>
      <button
        type="button"
        className={styles.offer}
        aria-disabled={looking || undefined}
        onClick={() => {
          if (!looking) lookup.mutate(query.q);
        }}
      >
        <span className={styles.icon} aria-hidden="true">
          <Globe size="1.1em" />
        </span>
        <span className={styles.lines}>
          <span className={styles.label}>{lookupLabel(query)}</span>
          {query.kind === 'url' && <span className={styles.address}>{displayUrl(query.url)}</span>}
        </span>
      </button>
      {looking && (
        <p className={styles.status} role="status">
          <Trans>Looking…</Trans>
        </p>
      )}
      {failed && (
        <p className={styles.error} role="alert">
          {failed.text}
          {failed.signIn && (
            <>
              {' '}
              <Link to={signInPath(here)}>
                <Trans>Sign in</Trans>
              </Link>
            </>
          )}
        </p>
      )}
    </div>
  );
}
