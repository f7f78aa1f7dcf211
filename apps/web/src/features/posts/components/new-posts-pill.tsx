import { Plural } from '@lingui/react/macro';
import type { Sort } from '@share-arts/contract';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowUp } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { forgetNewPosts, useNewPosts } from '../../../lib/live';
import { toast } from '../../../ui/toast';
import { getPostPage, postListQuery } from '../api/get-post-list';
import type { PostListData } from '../api/post-cache';
import { postKeys, type PostListSource } from '../api/post-keys';
import styles from './new-posts-pill.module.css';

interface NewPostsPillProps {
  /** Home counts the posts of people the viewer follows; Explore counts every post. */
  source: Extract<PostListSource, { kind: 'feed' | 'explore' }>;
  sort: Sort;
}

const listIds = (data: PostListData) => new Set(data.pages.flatMap((page) => page.posts.map((post) => post._id)));

/**
 * "3 new posts": published since the list was loaded (the live stream says so), and not in it. The
 * list itself never changes under the reader; the pill floats over it, and a click brings the newest
 * page and goes to the top. Only the newest-first order has a top to put them at.
 */
export function NewPostsPill({ source, sort }: NewPostsPillProps) {
  const queryClient = useQueryClient();
  const announced = useNewPosts();
  // Reads the list PostList loads, without loading it a second time.
  const { data: shown } = useInfiniteQuery({ ...postListQuery(source, sort), enabled: false, select: listIds });
  const [loading, setLoading] = useState(false);
  const slotRef = useRef<HTMLDivElement>(null);
  const goToTop = useRef(false);

  // Once the newest page is on screen (PostList renders in the same commit): to the top, and the
  // keyboard continues from the first post, since the pill is gone (a feed's articles take focus).
  useEffect(() => {
    if (!goToTop.current) return;
    goToTop.current = false;
    const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    window.scrollTo({ top: 0, behavior: reduceMotion ? 'auto' : 'smooth' });
    const firstPost = slotRef.current?.parentElement?.querySelector<HTMLElement>('[role="feed"] > article');
    if (firstPost) {
      firstPost.tabIndex = -1;
      firstPost.focus({ preventScroll: true });
    }
  }, [shown]);

  const fresh =
    sort === 'latest' && shown
      ? announced.filter(
          (post) =>
            (source.kind === 'explore' || post.following) &&
            !shown.has(post.postId) &&
            // Written in this tab: the composer puts it in the lists itself.
            queryClient.getQueryData(postKeys.detail(post.postId)) === undefined,
        )
      : [];

  const showNewPosts = async () => {
    if (loading) return;
    setLoading(true);
    const key = postKeys.list(source, sort);
    try {
      await queryClient.cancelQueries({ queryKey: key });
      const first = await getPostPage(source, sort, null);
      // Only the newest page: the reader goes back to the top, and scrolling loads the rest again.
      queryClient.setQueryData<PostListData>(key, { pages: [first], pageParams: [null] });
      forgetNewPosts(new Set(fresh.map((post) => post.postId)));
      goToTop.current = true;
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setLoading(false);
    }
  };

  const count = fresh.length;
  return (
    <div ref={slotRef} className={styles.slot} role="status">
      {count > 0 && (
        <button type="button" className={styles.pill} onClick={() => void showNewPosts()} aria-busy={loading}>
          <ArrowUp aria-hidden="true" size="1.1em" />
          <Plural value={count} one="# new post" other="# new posts" />
        </button>
      )}
    </div>
  );
}
