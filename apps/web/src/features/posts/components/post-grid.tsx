import { i18n } from '@lingui/core';
import { plural, t } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import type { Post, Sort } from '@share-arts/contract';
import { Heart, Layers, MessageCircle, Pin } from 'lucide-react';
import {
  memo,
  useCallback,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { Link } from 'react-router';
import { formatCount } from '../../../lib/format-count';
import { useWatchPost } from '../../../lib/live';
import type { PostListSource } from '../api/post-keys';
import { useShadowedPost } from '../api/post-shadow';
import { PagedPosts, usePinnedFirst } from './paged-posts';
import { boxRatio, justifiedRows, targetRowHeight, type JustifiedRow } from './justified-rows';
import { DEFAULT_PICTURE_SIZE, PostPicture, pictureAlt, postPictures } from './post-picture';
import { LazySensitiveCover } from './lazy-sensitive-cover';
import { stillPictures, useSensitiveCover, warningLabel } from './sensitive';
import styles from './post-grid.module.css';

/** The space between boxes, in CSS pixels (also in post-grid.module.css). */
const GAP = 4;
const FIRST_WORDS = 12;
/** Below this width (CSS px) a box's marks are icons with no words. */
const COMPACT_WIDTH = 150;

/** The first words of a post's text, for a work whose picture has no alt text. */
function firstWords(text: string): string {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '';
  return words.length > FIRST_WORDS ? `${words.slice(0, FIRST_WORDS).join(' ')}…` : words.join(' ');
}

/** What a screen reader says for a work: what it shows, by whom, its counts, its picture count, pinned. */
export function gridLabel(post: Post, pinned: boolean): string {
  const pictures = postPictures(post);
  const first = pictures[0] ?? null;
  const described = first?.alt.trim() || firstWords(post.content) || pictureAlt(first, post.username);
  const username = post.username;
  const likeCount = post.likes.likeCount;
  const commentCount = post.commentCount;
  const pictureCount = pictures.length;
  const likes = formatCount(likeCount);
  const comments = formatCount(commentCount);
  const parts = [
    t`${described}, by @${username}`,
    plural(likeCount, { one: `${likes} like`, other: `${likes} likes` }),
    plural(commentCount, { one: `${comments} comment`, other: `${comments} comments` }),
  ];
  if (pictureCount > 1) parts.push(plural(pictureCount, { one: '# picture', other: '# pictures' }));
  if (post.aiGenerated) parts.push(t`AI-generated`);
  const warning = post.contentWarning ? warningLabel(post.contentWarning) : '';
  if (warning) parts.push(t`sensitive: ${warning}`);
  if (pinned) parts.push(t`pinned`);
  // The separator as the language writes a list ("a, b, c"; Japanese with spaces; Arabic "،").
  return new Intl.ListFormat(i18n.locale || 'en', { style: 'short', type: 'unit' }).format(parts);
}

interface GridCellProps {
  post: Post;
  ratio: number;
  /** The width the box is drawn at, for `sizes`. */
  width: number;
  /** A last row's box has a fixed width; a full row's grows with its ratio to fill the row. */
  fixed: boolean;
  index: number;
  active: boolean;
  pinned: boolean;
  priority: boolean;
  register: (index: number, element: HTMLAnchorElement | null) => void;
  onFocusCell: (index: number) => void;
}

const GridCell = memo(function GridCell({
  post: cached,
  ratio,
  width,
  fixed,
  index,
  active,
  pinned,
  priority,
  register,
  onFocusCell,
}: GridCellProps) {
  const post = useShadowedPost(cached);
  const watchRef = useWatchPost<HTMLDivElement>(cached._id);
  const pictures = stillPictures(post, postPictures(post));
  const first = pictures[0] ?? null;
  // A sensitive work's box shows its warning (the post's page has Show); never the picture itself.
  const cover = useSensitiveCover(post);
  const style: CSSProperties = fixed
    ? { width: `${width}px`, aspectRatio: String(ratio) }
    : { flexGrow: ratio, flexShrink: 1, flexBasis: 0, aspectRatio: String(ratio) };
  return (
    <div role="gridcell" className={styles.cell} style={style} ref={watchRef}>
      <Link
        ref={(element) => register(index, element)}
        to={`/posts/${encodeURIComponent(post._id)}`}
        className={styles.link}
        tabIndex={active ? 0 : -1}
        aria-label={gridLabel(post, pinned)}
        onFocus={() => onFocusCell(index)}
      >
        {cover && post.contentWarning ? (
          <LazySensitiveCover
            warning={warningLabel(post.contentWarning)}
            placeholder={first?.placeholder}
            hidden={cover === 'hide'}
            compact
          />
        ) : (
          <PostPicture
            picture={first}
            fallbackUrl={post.postPic}
            alt=""
            sizes={`${Math.ceil(width)}px`}
            priority={priority}
            className={styles.picture}
          />
        )}
        {post.aiGenerated && (
          <span className={`${styles.mark} ${styles.ai}`} aria-hidden="true">
            AI
          </span>
        )}
        {pinned && (
          <span className={`${styles.mark} ${styles.pinned}`} aria-hidden="true">
            <Pin size="0.95em" />
            {/* A narrow box keeps the pin alone, so it leaves room for the picture count. */}
            {width >= COMPACT_WIDTH && (
              <>
                {' '}
                <Trans>Pinned</Trans>
              </>
            )}
          </span>
        )}
        {pictures.length > 1 && (
          <span className={`${styles.mark} ${styles.count}`} aria-hidden="true">
            <Layers size="0.95em" /> {pictures.length}
          </span>
        )}
        <span className={styles.overlay} aria-hidden="true">
          <span className={styles.stat}>
            <Heart size="1em" /> {formatCount(post.likes.likeCount)}
          </span>
          <span className={styles.stat}>
            <MessageCircle size="1em" /> {formatCount(post.commentCount)}
          </span>
        </span>
      </Link>
    </div>
  );
});

/**
 * The grid's width in the server's render of a shared page (src/entry-server.tsx), which has no screen to
 * measure: a phone's, 412 px wide less the page's margins, where shared links are mostly opened. The browser
 * measures its own, and its first render replaces the server's.
 */
const SERVER_WIDTH = 386;

/**
 * The width of the element given to the returned callback ref: measured when it is attached (in the commit,
 * before paint, so the rows are laid out before anything is drawn) and again whenever it changes.
 */
function useWidth<T extends HTMLElement>(): [(element: T | null) => void, number] {
  const [width, setWidth] = useState(() => (typeof window === 'undefined' ? SERVER_WIDTH : 0));
  const ref = useCallback((element: T | null) => {
    if (!element) return;
    setWidth(element.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/**
 * The work whose picture is drawn largest in the grid's first row: the row sure to be on screen (a profile's
 * grid starts below its header), and usually the page's largest paint. It is loaded at once and first (the
 * others follow, see ui/picture-gate.ts), and is the one in a drawn page's HTML.
 */
function largestFirst(rows: readonly JustifiedRow[]): number {
  const row = rows[0];
  if (!row) return 0;
  let best = 0;
  row.ratios.forEach((ratio, offset) => {
    if (ratio > row.ratios[best]!) best = offset;
  });
  return row.start + best;
}

/** Which row an item index is in. */
function rowOf(rows: readonly JustifiedRow[], index: number): number {
  return rows.findIndex((row) => index >= row.start && index < row.start + row.ratios.length);
}

interface PostGridViewProps {
  posts: readonly Post[];
  /** Accessible name of the grid, e.g. "Posts by @ada". */
  label: string;
  /** How many of the first `posts` are pinned (marked "Pinned"). */
  pinnedCount?: number;
  busy?: boolean;
  className?: string;
  /** Whether its first row's largest work is the page's priority picture (false for a grid further down). */
  priority?: boolean;
}

/**
 * Works as a grid of justified rows (see justified-rows.ts): each work's first picture at its own shape, a
 * mark on works with several pictures, the likes and comments on hover and focus. One Tab stop: the arrow keys
 * move between works (↑/↓ to the nearest work of the row above or below), Home/End to the row's first and
 * last, Ctrl+Home/End to the grid's, and Enter opens the work.
 */
export function PostGridView({
  posts,
  label,
  pinnedCount = 0,
  busy = false,
  className,
  priority = true,
}: PostGridViewProps) {
  const [measure, width] = useWidth<HTMLDivElement>();
  const ratios = useMemo(() => posts.map((post) => boxRatio(postPictures(post)[0] ?? DEFAULT_PICTURE_SIZE)), [posts]);
  const target = targetRowHeight(width);
  const rows = useMemo(() => justifiedRows(ratios, width, GAP, target), [ratios, width, target]);
  const first = priority ? largestFirst(rows) : -1;
  const [active, setActive] = useState(0);
  const links = useRef<(HTMLAnchorElement | null)[]>([]);
  const current = Math.min(active, Math.max(0, posts.length - 1));

  const register = useCallback((index: number, element: HTMLAnchorElement | null) => {
    links.current[index] = element;
  }, []);

  const move = (next: number) => {
    const clamped = Math.max(0, Math.min(posts.length - 1, next));
    setActive(clamped);
    links.current[clamped]?.focus();
  };

  /** The work of row `target` whose centre is nearest the centre of work `from`. */
  const nearestIn = (from: number, targetRow: number): number => {
    const row = rows[targetRow];
    const origin = links.current[from]?.getBoundingClientRect();
    if (!row || !origin) return from;
    const x = origin.left + origin.width / 2;
    let best = row.start;
    let distance = Infinity;
    for (let index = row.start; index < row.start + row.ratios.length; index += 1) {
      const box = links.current[index]?.getBoundingClientRect();
      if (!box) continue;
      const d = Math.abs(box.left + box.width / 2 - x);
      if (d < distance) {
        distance = d;
        best = index;
      }
    }
    return best;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.metaKey || event.shiftKey) return;
    const row = rowOf(rows, current);
    const span = rows[row];
    let next: number | null = null;
    // Right to left (Arabic), the next work is to the left.
    const forward = getComputedStyle(event.currentTarget).direction === 'rtl' ? -1 : 1;
    switch (event.key) {
      case 'ArrowRight':
        next = current + forward;
        break;
      case 'ArrowLeft':
        next = current - forward;
        break;
      case 'ArrowDown':
        next = row < rows.length - 1 ? nearestIn(current, row + 1) : current;
        break;
      case 'ArrowUp':
        next = row > 0 ? nearestIn(current, row - 1) : current;
        break;
      case 'Home':
        next = event.ctrlKey || !span ? 0 : span.start;
        break;
      case 'End':
        next = event.ctrlKey || !span ? posts.length - 1 : span.start + span.ratios.length - 1;
        break;
      default:
        return;
    }
    event.preventDefault();
    move(next);
  };

  return (
    <div
      ref={measure}
      role="grid"
      aria-label={label}
      aria-busy={busy || undefined}
      aria-rowcount={-1}
      className={[styles.grid, className].filter(Boolean).join(' ')}
      onKeyDown={onKeyDown}
    >
      {rows.map((row) => (
        <div
          key={row.start}
          role="row"
          className={styles.row}
          style={{ containIntrinsicSize: `auto ${Math.round(row.height)}px` }}
        >
          {row.ratios.map((ratio, offset) => {
            const index = row.start + offset;
            const post = posts[index];
            if (!post) return null;
            return (
              <GridCell
                key={post._id}
                post={post}
                ratio={ratio}
                width={ratio * row.height}
                fixed={row.last}
                index={index}
                active={index === current}
                pinned={index < pinnedCount}
                priority={index === first}
                register={register}
                onFocusCell={setActive}
              />
            );
          })}
        </div>
      ))}
    </div>
  );
}

interface PostGridProps {
  source: PostListSource;
  sort: Sort;
  /** Accessible name of the grid, e.g. "Posts by @ada". */
  label: string;
  /** What to show when there are no posts at all (and nothing pinned). */
  empty: ReactNode;
  /** Works shown first, in this order, marked "Pinned", and left out of the pages below. */
  pinned?: readonly Post[];
  /** The pinned works are still loading: wait for them, so the works do not move once they arrive. */
  pinnedPending?: boolean;
}

/** A paged grid of works (see PostGridView), paged by PagedPosts; pinned works first. */
export function PostGrid({ source, sort, label, empty, pinned, pinnedPending = false }: PostGridProps) {
  const arrange = usePinnedFirst(pinned);
  return (
    <PagedPosts source={source} sort={sort} empty={empty} pending={pinnedPending} arrange={arrange}>
      {({ posts, busy, staleClassName }) => (
        <PostGridView
          posts={posts}
          label={label}
          pinnedCount={pinned?.length ?? 0}
          busy={busy}
          className={staleClassName}
        />
      )}
    </PagedPosts>
  );
}
