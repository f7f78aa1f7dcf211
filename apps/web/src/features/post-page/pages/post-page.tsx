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
  useDocumentTitle('Post');
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
      Back
    </button>
  ) : (
    <Link to="/" className={styles.back}>
      <ArrowLeft aria-hidden="true" size="1.1em" />
      Home
    </Link>
  );

  if (isPending) {
    return (
      <div className={styles.page}>
        <h1 className="visually-hidden">Post</h1>
        <p className={styles.loading} role="status">
          Loading.....
        </p>
      </div>
    );
  }

  if (!post) {
    if (error instanceof ApiError && error.status === 404) {
      return (
        <NotFound icon={ImageOff} title="Post not found">
          It may have been deleted, or the link is not quite right.
          {!me && (
            // A visitor: the artist may show their works to signed-in people only.
            <>
              {' '}
              Some artists show their works to signed-in people only:{' '}
              <Link to={signInPath(`${location.pathname}${location.search}`)}>sign in</Link> to see it.
            </>
          )}
        </NotFound>
      );
    }
    return (
      <div className={styles.page}>
        <section className={styles.missing} aria-labelledby="post-missing-title">
          <h1 id="post-missing-title" className={styles.missingTitle}>
            This post could not be loaded
          </h1>
          <p className={styles.muted}>{errorMessage(error)} Check your connection and try again.</p>
          <div className={styles.missingActions}>
            <Button onClick={() => void refetch()}>Try again</Button>
            <Link to="/">Back to Home</Link>
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
        <h1 className={styles.title}>Post</h1>
        {/* On the author's own post that moderators hid: why. */}
        <ModerationNotice post={post} />
        {/* The artist's own work: its insights (issue 42). */}
        {me && me._id === post.userId && (
          <Link to={`/insights/posts/${post._id}`} className={styles.back}>
            <ChartColumn aria-hidden="true" size="1.1em" />
            Insights
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
