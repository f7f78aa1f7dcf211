import { Trans, useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useEffect } from 'react';
import { useParams } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { reportView } from '../../../lib/view-beacon';
import { Button } from '../../../ui/button';
import { useUserProfile } from '../../people';
import { BlockedProfile, safetyOf } from '../../safety/profile';
import { SeriesRow } from '../../series';
import { ProfileHeader } from '../components/profile-header';
import { ProfilePosts } from '../components/profile-posts';
import { remoteHome } from '../components/remote-home';
import { UserNotFound } from '../components/user-not-found';
import styles from './profile-page.module.css';

/** The "Open for commissions" panel (issue 42): its own chunk, loaded only for a profile that may show it. */
const CommissionPanel = lazy(() => import('../../commissions/panel'));
/** "Send an inquiry" (issue 42): its own chunk, for a signed-in visitor of an artist here. */
const SendInquiry = lazy(() => import('../../inquiries/send'));

/** /profile (the current user) and /:username (anyone, in any letter case). */
export default function ProfilePage() {
  const { t } = useLingui();
  useDocumentTitle(t`Profile`);
  const { username: param } = useParams();
  const { data: me } = useCurrentUser();
  const username = param ?? me?.username ?? '';
  const isOwn = me != null && username.toLowerCase() === me.username.toLowerCase();
  const { data: user, isPending, isError, error, refetch } = useUserProfile(username);
  // A view of someone else's profile, for their insights (issue 42).
  const seen = user && !user.remote && !isOwn ? user.username : undefined;
  useEffect(() => {
    if (seen) reportView({ username: seen });
  }, [seen]);

  if (isPending) {
    return (
      <p className={styles.status} role="status">
        <Trans>Loading profile…</Trans>
      </p>
    );
  }
  if (isError && !user) {
    if (error instanceof ApiError && error.status === 404) return <UserNotFound username={username} />;
    const problem = errorMessage(error);
    return (
      <div className={styles.problem} role="alert">
        <p>
          <Trans>The profile could not be loaded: {problem}</Trans>
        </p>
        <Button variant="secondary" onClick={() => void refetch()}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    );
  }

  return (
    <div className={styles.page}>
      {/* Feed readers find the artist's Atom feed here (React puts the link in the document's head). Someone on
          another server has none here (their server's page, which the server's head names, is theirs). */}
      {!user.remote && (
        <link
          rel="alternate"
          type="application/atom+xml"
          title={`@${user.username} on Share Arts`}
          href={`/api/users/${encodeURIComponent(user.username)}/feed.atom`}
        />
      )}
      <ProfileHeader user={user} isOwn={isOwn} />
      {/* Open for commissions (issue 42): when they are, or for a follower who may ask to be told when they open. */}
      {!user.remote &&
        (isOwn || !safetyOf(user).blocked) &&
        (user.openForCommissions || (me && !isOwn && user.viewer.follows)) && (
          <Suspense fallback={null}>
            <CommissionPanel key={`commissions-${user._id}`} username={user.username} isOwn={isOwn} signedIn={!!me} />
          </Suspense>
        )}
      {/* Inquiries (issue 42): a signed-in visitor asks the artist for a commission (the button says when they may not). */}
      {me && !isOwn && !user.remote && !safetyOf(user).blocked && (
        <Suspense fallback={null}>
          <SendInquiry key={`inquiry-${user._id}`} username={user.username} />
        </Suspense>
      )}
      {/* The artist's series (issue 41): not for a blocked artist, a remote person, nor a visitor kept out of the works. */}
      {!user.remote && (isOwn || !safetyOf(user).blocked) && (me || !user.worksSignedInOnly) && (
        <SeriesRow key={`series-${user._id}`} username={user.username} isOwn={isOwn} />
      )}
      {/* Keyed by user, so another profile starts on its own first page. A blocked artist's works are hidden. */}
      {!isOwn && safetyOf(user).blocked ? (
        <BlockedProfile username={user.username} />
      ) : (
        <ProfilePosts
          key={user._id}
          username={user.username}
          isOwn={isOwn}
          hiddenFromVisitor={!me && user.worksSignedInOnly}
          remoteHome={remoteHome(user)}
        />
      )}
    </div>
  );
}
