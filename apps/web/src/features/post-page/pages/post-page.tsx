import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowLeft, ChartColumn, ImageOff } from 'lucide-react';
import { useEffect, type CSSProperties } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { isPanorama, pageBoxRatio } from '../../../lib/picture-shape';
import { signInPath, useCurrentUser } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { reportView } from '../../../lib/view-beacon';
import { Button } from '../../../ui/button';
import { NotFound } from '../../../ui/not-found';
import { CommentSection } from '../../comments';
import { PostCard, usePost } from '../../posts';
import { PostLicence } from '../../posts/rights';
import { ModerationNotice, MutedPostGate } from '../../safety/post';
import { PostSeries } from '../../series';
import styles from './post-page.module.css';

/**
 * /posts/:postId — the artwork, fitted to the window so that it is seen whole, with the post's details and
 * comments beside it on a wide screen and below it on a narrow one. A feature of its own: it composes posts
 * and comments, and comments build on posts, so neither of them imports the other's page.
 */
export default function PostPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Post`);
  const { postId = '' } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const { data: post, error, isPending, refetch } = usePost(postId);
  const { data: me } = useCurrentUser();
  // A view of the work, for its artist's insights (issue 42): once it is shown.
  const shownId = post?._id;
  useEffect(() => {
    if (shownId) reportView({ postId: shownId });
  }, [shownId]);

  // Back to the list this post was opened from; a post opened from a link goes Home instead.
  const cameFromApp = location.key !== 'default';
  const back = cameFromApp ? (
    <button type="button" className={styles.back} onClick={() => void navigate(-1)}>
      <ArrowLeft aria-hidden="true" size="1.1em" />
      <Trans>Back</Trans>
    </button>
  ) : (
    <Link to="/" className={styles.back}>
      <ArrowLeft aria-hidden="true" size="1.1em" />
      <Trans>Home</Trans>
    </Link>
  );

  if (isPending) {
    return (
      <div className={styles.page}>
        <h1 className="visually-hidden">
          <Trans>Post</Trans>
        </h1>
        <p className={styles.loading} role="status">
          <Trans>Loading.....</Trans>
        </p>
      </div>
    );
  }

  if (!post) {
    const here = `${location.pathname}${location.search}`;
    if (error instanceof ApiError && error.status === 404) {
      return (
        <NotFound icon={ImageOff} title={t`Post not found`}>
          <Trans>It may have been deleted, or the link is not quite right.</Trans>
          {!me && (
            // A visitor: the artist may show their works to signed-in people only.
            <>
              {' '}
              <Trans>
                Some artists show their works to signed-in people only: <Link to={signInPath(here)}>sign in</Link> to
                see it.
              </Trans>
            </>
          )}
        </NotFound>
      );
    }
    return (
      <div className={styles.page}>
        <section className={styles.missing} aria-labelledby="post-missing-title">
          <h1 id="post-missing-title" className={styles.missingTitle}>
            <Trans>This post could not be loaded</Trans>
          </h1>
          <p className={styles.muted}>
            {errorMessage(error)} <Trans>Check your connection and try again.</Trans>
          </p>
          <div className={styles.missingActions}>
            <Button onClick={() => void refetch()}>
              <Trans>Try again</Trans>
            </Button>
            <Link to="/">
              <Trans>Back to Home</Trans>
            </Link>
          </div>
        </section>
      </div>
    );
  }

  // From 1100 px the artwork's column is as wide as its box fitted to the window (see the CSS); a panorama
  // goes across the page instead. A server that does not list `media` yet names the first picture only.
  const pictures = post.media ?? (post.picture ? [post.picture] : []);
  const ratio = pageBoxRatio(pictures);
  const layout = { '--art-ratio': ratio.toFixed(4) } as CSSProperties;
  const classes = [styles.page, styles.post, isPanorama(ratio) ? styles.across : styles.beside].join(' ');

  return (
    <div className={classes} style={layout}>
      <header className={styles.top}>
        {back}
        <h1 className={styles.title}>
          <Trans>Post</Trans>
        </h1>
        {/* On the author's own post that moderators hid: why. */}
        <ModerationNotice post={post} />
        {/* The artist's own work: its insights (issue 42). */}
        {me && me._id === post.userId && (
          <Link to={`/insights/posts/${post._id}`} className={styles.back}>
            <ChartColumn aria-hidden="true" size="1.1em" />
            <Trans>Insights</Trans>
          </Link>
        )}
      </header>
      <MutedPostGate post={post}>
        <PostCard post={post} variant="page" priority onDeleted={() => void navigate('/', { replace: true })} />
        <div className={styles.comments}>
          {/* The series the work is in, with the works before and after it (issue 41). */}
          <PostSeries post={post} />
          {/* The licence and Download sit with the details, above the comments, in both layouts. */}
          <PostLicence post={post} />
          <CommentSection post={post} />
        </div>
      </MutedPostGate>
    </div>
  );
}
