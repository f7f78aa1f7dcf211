import { Trans, useLingui } from '@lingui/react/macro';
import { mayDownload, type Picture, type Post } from '@share-arts/contract';
import { lazy, Suspense, useEffect, useRef, useState, type CSSProperties } from 'react';
import { aspectRatio, clampedRatio, pageBoxRatio } from '../../../lib/picture-shape';
import { POST_PICTURE_SIZES, postPageSizes } from '../../../lib/post-picture-sizes';
import { reportView } from '../../../lib/view-beacon';
import { Carousel, type CarouselHandle, type SlideState } from '../../../ui/carousel';
import { LazySensitiveCover } from './lazy-sensitive-cover';
import { ProcessStrip } from './process-strip';
import { DEFAULT_PICTURE_SIZE, pictureAlt, PostPicture, postPictures } from './post-picture';
import { revealPost, stillPictures, useSensitiveCover, warningLabel } from './sensitive';
import styles from './post-media.module.css';

// The viewer is fetched when someone is about to open it (a pointer over a picture, focus on it), not with
// the feed.
const loadLightbox = () => import('../../../ui/lightbox/lightbox');
const Lightbox = lazy(loadLightbox);
const warmLightbox = () => void loadLightbox();

interface PostMediaProps {
  post: Pick<
    Post,
    | '_id'
    | 'media'
    | 'picture'
    | 'postPic'
    | 'username'
    | 'contentWarning'
    | 'aiGenerated'
    | 'licence'
    | 'downloadable'
    | 'origin'
  > &
    Partial<Pick<Post, 'process'>>;
  variant: 'feed' | 'page';
  /** The first card on screen, or the post page: its first picture loads at once rather than lazily. */
  priority?: boolean;
}

/**
 * A post's pictures. Each sits whole in a box reserved from its width and height (nothing moves as it
 * loads): in a card, at its own shape clamped between 4:5 and 1.91:1, on a neutral mat beyond; on the post
 * page, fitted to the window's height as well. Several pictures make a carousel whose box takes the first
 * one's shape. Clicking a picture (or Enter on it) opens the viewer there; closing the viewer brings focus
 * back to the picture last viewed.
 */
export function PostMedia({ post, variant, priority = false }: PostMediaProps) {
  const { t } = useLingui();
  // A flashing-warned animation never plays by itself; a sensitive work is covered until Show.
  const pictures = stillPictures(post, postPictures(post));
  const cover = useSensitiveCover(post);
  const count = pictures.length;
  const [viewer, setViewer] = useState<number | null>(null);
  const carouselRef = useRef<CarouselHandle>(null);
  const singleRef = useRef<HTMLButtonElement>(null);
  const returnTo = useRef<number | null>(null);
  // The work's process pictures (issue 41): in the viewer after the pictures, and a strip of their own on its page.
  // `process` may be missing from an answer cached before the server sent it.
  const process = stillPictures(post, post.process ?? []);
  const processRef = useRef<HTMLOListElement>(null);

  // Once the viewer has gone (the page is no longer inert), focus goes to the picture it was showing.
  useEffect(() => {
    if (viewer !== null || returnTo.current === null) return;
    const index = returnTo.current;
    returnTo.current = null;
    const step = processRef.current?.querySelector<HTMLElement>(`[data-index="${index - count}"]`);
    if (index >= count && step) step.focus();
    else if (index >= count) singleRef.current?.focus();
    else if (carouselRef.current) carouselRef.current.focusSlide(index);
    else singleRef.current?.focus();
  }, [viewer, count]);

  const first = pictures[0];
  const style = {
    '--own-ratio': aspectRatio(first ?? DEFAULT_PICTURE_SIZE).toFixed(4),
    '--clamped-ratio': clampedRatio(first ?? DEFAULT_PICTURE_SIZE).toFixed(4),
  } as CSSProperties;
  const sizes = variant === 'feed' ? POST_PICTURE_SIZES.feed : postPageSizes(pageBoxRatio(pictures));
  const altOf = (picture: Picture | null, index: number) => pictureAlt(picture, post.username, { index, count });
  const boxClass = count > 1 ? styles.box : `${styles.box} ${styles.one}`;
  const mediaClass = variant === 'page' ? `${styles.media} ${styles.page}` : styles.media;

  // The AI label sits on the work itself, wherever it is shown.
  const aiBadge = post.aiGenerated && (
    <span className={styles.aiBadge} title={t`The artist labels this work as AI-generated`}>
      <Trans>AI-generated</Trans>
    </span>
  );

  if (cover && post.contentWarning) {
    return (
      <div className={mediaClass} style={style}>
        <div className={boxClass}>
          <LazySensitiveCover
            warning={warningLabel(post.contentWarning)}
            placeholder={first?.placeholder}
            hidden={cover === 'hide'}
            onShow={() => revealPost(post._id)}
          />
          {aiBadge}
        </div>
      </div>
    );
  }

  const username = post.username;
  const processCount = process.length;
  const processAlt = (picture: Picture, index: number) => {
    const number = index + 1;
    return picture.alt.trim() || t`Process picture ${number} of ${processCount} by @${username}`;
  };
  const strip = variant === 'page' && (
    <ProcessStrip
      pictures={process}
      altOf={processAlt}
      onOpen={(index) => setViewer(count + index)}
      onWarm={warmLightbox}
      listRef={processRef}
    />
  );
  const viewerDialog = viewer !== null && (
    <Suspense fallback={null}>
      <Lightbox
        items={[
          ...pictures.map((picture, index) => ({ picture, alt: altOf(picture, index) })),
          ...process.map((picture, index) => ({ picture, alt: processAlt(picture, index), section: t`Process` })),
        ]}
        start={viewer}
        // A work from another server: what is here is a copy, its original is on its own server.
        downloadable={mayDownload(post) && !post.origin}
        onClose={(index) => {
          returnTo.current = index;
          setViewer(null);
        }}
      />
    </Suspense>
  );

  if (!first) {
    return (
      <div className={mediaClass} style={style}>
        <div className={boxClass}>
          <PostPicture
            picture={null}
            fallbackUrl={post.postPic}
            alt={altOf(null, 0)}
            sizes={sizes}
            priority={priority}
          />
          {aiBadge}
        </div>
        {strip}
        {viewerDialog}
      </div>
    );
  }

  const opener = (index: number, state: SlideState) => {
    const picture = pictures[index]!;
    return (
      <button
        ref={count === 1 ? singleRef : undefined}
        type="button"
        className={styles.open}
        aria-haspopup="dialog"
        tabIndex={state.current ? 0 : -1}
        onClick={() => {
          setViewer(index);
          // The viewer counts as a view of the work, for its artist's insights (issue 42).
          reportView({ postId: post._id }, true);
        }}
        onPointerEnter={warmLightbox}
        onFocus={warmLightbox}
      >
        <PostPicture
          picture={picture}
          fallbackUrl={post.postPic}
          alt={altOf(picture, index)}
          sizes={sizes}
          priority={priority && index === 0}
          loading={state.loading}
        />
      </button>
    );
  };

  return (
    <div className={mediaClass} style={style}>
      {count === 1 ? (
        <div className={boxClass}>
          {opener(0, { current: true, loading: 'lazy' })}
          {aiBadge}
        </div>
      ) : (
        <Carousel
          ref={carouselRef}
          count={count}
          itemName="picture"
          label={t`Pictures by @${username}`}
          viewportClassName={boxClass}
          renderSlide={opener}
        />
      )}
      {count > 1 && aiBadge && <p className={styles.aiNote}>{aiBadge}</p>}
      {strip}
      {viewerDialog}
    </div>
  );
}
