import { Trans, useLingui } from '@lingui/react/macro';
import { Bookmark, ExternalLink, Grid3x3, Heart, LayoutGrid, LibraryBig, List } from 'lucide-react';
import { lazy, Suspense, type ReactNode } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { signInPath } from '../../../lib/session';
import { Tabs, type TabItem } from '../../../ui/tabs';
import { PostList, usePinnedQuery, type PostListSource } from '../../posts';
import { PostGrid } from '../../posts/grid';
import { PinnedArranger } from './pinned-arranger';
import type { RemoteHome } from './remote-home';
import styles from './profile-posts.module.css';

type Tab = 'posts' | 'liked' | 'saved' | 'collections';

// The Collections tab (issue 41) loads when it is opened: the profile's chunk stays light.
const ProfileCollections = lazy(() => import('../../collections/profile'));
type View = 'grid' | 'list';

const LIKED: PostListSource = { kind: 'liked' };
const SAVED: PostListSource = { kind: 'saved' };

function Empty({ text }: { text: string }) {
  return <p className={styles.empty}>{text}</p>;
}

/** A visitor on the profile of an artist who shows their works to signed-in people only. */
function SignedInOnly({ username }: { username: string }) {
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  return (
    <p className={styles.empty}>
      <Trans>
        @{username} shows their works to signed-in people only. <Link to={signInPath(here)}>Sign in</Link> to see them.
      </Trans>
    </p>
  );
}

/**
 * Under the works of someone on another server: only what they posted since someone here followed them (and a
 * few before) came here; the rest is on their server.
 */
function OlderWorks({ home }: { home: RemoteHome }) {
  const host = home.host;
  return (
    <p className={styles.older}>
      {home.url ? (
        <a href={home.url} target="_blank" rel="noopener nofollow">
          <Trans>Older works are on {host}</Trans>
          <ExternalLink aria-hidden="true" size="0.9em" className={styles.external} />
          <span className="visually-hidden">
            {' '}
            <Trans>(opens in a new tab)</Trans>
          </span>
        </a>
      ) : (
        <Trans>Older works are on {host}.</Trans>
      )}
    </p>
  );
}

/** Grid or list: two toggle buttons, the choice kept in the URL (?view=list; the grid is the default). */
function ViewToggle({ view, onChange }: { view: View; onChange: (view: View) => void }) {
  const { t } = useLingui();
  const options: { value: View; label: string; icon: ReactNode }[] = [
    { value: 'grid', label: t`Grid`, icon: <LayoutGrid aria-hidden="true" size="1.1em" /> },
    { value: 'list', label: t`List`, icon: <List aria-hidden="true" size="1.1em" /> },
  ];
  return (
    <div role="group" aria-label={t`Show posts as`} className={styles.toggle}>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          className={styles.toggleButton}
          aria-pressed={view === option.value}
          onClick={() => onChange(option.value)}
        >
          {option.icon}
          {option.label}
        </button>
      ))}
    </div>
  );
}

interface PanelProps {
  source: PostListSource;
  label: string;
  empty: ReactNode;
  view: View;
  pinned?: Parameters<typeof PostGrid>[0]['pinned'];
  pinnedPending?: boolean;
}

function Panel({ source, label, empty, view, pinned, pinnedPending }: PanelProps) {
  return view === 'list' ? (
    <PostList source={source} sort="latest" label={label} empty={empty} pinned={pinned} pinnedPending={pinnedPending} />
  ) : (
    <PostGrid source={source} sort="latest" label={label} empty={empty} pinned={pinned} pinnedPending={pinnedPending} />
  );
}

/**
 * Posts for everyone (the artist's pinned works first); Liked and Saved on your own profile only. Each as a
 * grid of works or a list of cards. The tab (?tab=) and the view (?view=) are kept in the URL.
 */
export function ProfilePosts({
  username,
  isOwn,
  hiddenFromVisitor = false,
  remoteHome = null,
}: {
  username: string;
  isOwn: boolean;
  /** Signed out, on the profile of an artist who shows their works to signed-in people only. */
  hiddenFromVisitor?: boolean;
  /**
   * Someone on another server (following out, issue 39): their works that came here, no pins (those are their
   * server's), and a line leading to the older ones there.
   */
  remoteHome?: RemoteHome | null;
}) {
  const { t } = useLingui();
  // The tabs, in the app's language: Posts, Liked, Saved (your own profile) and Collections.
  const postsTab: TabItem<Tab> = { value: 'posts', label: t`Posts`, icon: <Grid3x3 aria-hidden="true" size="1.1em" /> };
  const collectionsTab: TabItem<Tab> = {
    value: 'collections',
    label: t`Collections`,
    icon: <LibraryBig aria-hidden="true" size="1.1em" />,
  };
  const tabs = {
    own: [
      postsTab,
      { value: 'liked', label: t`Liked`, icon: <Heart aria-hidden="true" size="1.1em" /> },
      { value: 'saved', label: t`Saved`, icon: <Bookmark aria-hidden="true" size="1.1em" /> },
      collectionsTab,
    ] satisfies TabItem<Tab>[],
    other: [postsTab, collectionsTab],
  };
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab =
    isOwn && (requested === 'liked' || requested === 'saved')
      ? requested
      : requested === 'collections' && !remoteHome && !hiddenFromVisitor
        ? requested
        : 'posts';
  const view: View = params.get('view') === 'list' ? 'list' : 'grid';
  const { pinned, pending: pinnedPending } = usePinnedQuery(remoteHome ? undefined : username);

  const setParam = (name: string, value: string | null) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (value === null) updated.delete(name);
        else updated.set(name, value);
        return updated;
      },
      { replace: true },
    );
  const select = (next: Tab) => setParam('tab', next === 'posts' ? null : next);
  const changeView = (next: View) => setParam('view', next === 'grid' ? null : next);

  let panel;
  if (tab === 'collections') {
    panel = (
      <Suspense
        fallback={
          <p className={styles.empty} role="status">
            <Trans>Loading collections…</Trans>
          </p>
        }
      >
        <ProfileCollections username={username} isOwn={isOwn} />
      </Suspense>
    );
  } else if (tab === 'liked') {
    panel = (
      <Panel
        source={LIKED}
        view={view}
        label={t`Posts you liked`}
        empty={<Empty text={t`Posts you like show up here. Tap the heart on a post you love.`} />}
      />
    );
  } else if (tab === 'saved') {
    panel = (
      <Panel
        source={SAVED}
        view={view}
        label={t`Posts you saved`}
        empty={<Empty text={t`Save posts to find them again here. Use the bookmark on any post.`} />}
      />
    );
  } else {
    panel = (
      <>
        {isOwn && pinned && pinned.length > 0 && <PinnedArranger pinned={pinned} />}
        <Panel
          source={{ kind: 'user', username }}
          view={view}
          label={t`Posts by @${username}`}
          // The pinned works first, in the grid and in the list of cards alike.
          pinned={pinned}
          pinnedPending={pinnedPending}
          empty={
            hiddenFromVisitor ? (
              <SignedInOnly username={username} />
            ) : remoteHome ? (
              <Empty text={t`No works by @${username} have come here yet.`} />
            ) : (
              <Empty
                text={
                  isOwn
                    ? t`You have not posted yet. Share your art with Add Post.`
                    : t`@${username} has not posted yet.`
                }
              />
            )
          }
        />
        {remoteHome && <OlderWorks home={remoteHome} />}
      </>
    );
  }

  return (
    <div className={styles.section}>
      <ViewToggle view={view} onChange={changeView} />
      <Tabs
        label={t`Profile sections`}
        items={isOwn ? tabs.own : remoteHome || hiddenFromVisitor ? tabs.other.slice(0, 1) : tabs.other}
        value={tab}
        onChange={select}
      >
        {panel}
      </Tabs>
    </div>
  );
}
