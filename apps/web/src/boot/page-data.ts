/**
 * The page's first API requests, sent by the boot script (boot.ts) before the app's modules have arrived: with a
 * stored token, on a signed-in page, the token check, and the first page of a feed with the suggestions
 * beside it, or the post and its first comments; once the feed or the post has arrived, its first picture
 * (the page's largest paint) is preloaded. The app takes these answers instead of asking again (lib/boot-data.ts).
 *
 * Import only small, dependency-free modules here: whatever they pull in ships in the boot script.
 */
import { SORTS, STORAGE_KEYS, type Post, type PostPage, type PostResponse, type Sort } from '@share-arts/contract';
import { BOOT_GLOBAL, bootKey, type BootRequest, type BootResult, type BootState } from '../lib/boot-data';
import {
  commentPagePath,
  FEED_ROUTES,
  pagePath,
  postPath,
  SUGGESTIONS_SHOWN,
  suggestionsPath,
} from '../lib/first-requests';
import { pageBoxRatio } from '../lib/picture-shape';
import { POST_PICTURE_SIZES, postPageSizes } from '../lib/post-picture-sizes';
import { addLink, readStorage } from './dom';

/** The inline JSON of a shared page's first API answers by path (the server's pages module writes it). */
const PAGE_DATA_ID = 'page-data';
import { isSignedInRoute, type BootRoute } from './boot-route';

export function startPageRequests(route: BootRoute, postId: string | undefined): void {
  const token = readStorage(STORAGE_KEYS.token);
  const state: BootState = { token, startedAt: performance.now(), requests: {} };
  (window as unknown as Record<string, BootState>)[BOOT_GLOBAL] = state;

  const send = (method: 'GET' | 'POST', path: string, body?: unknown): Promise<BootResult> => {
    const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${token}` };
    if (body) headers['content-type'] = 'application/json';
    const request: Partial<BootRequest> = {};
    request.promise = fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined })
      .then(
        async (response) => ({ status: response.status, body: await response.text() }),
        () => ({ status: 0, body: '' }),
      )
      .then((result) => (request.result = result));
    state.requests[bootKey(method, path)] = request as BootRequest;
    return request.promise;
  };

  /**
   * The file the first card's <picture> will pick: its first source whose media query this screen meets (a P3
   * variant only on a wide-gamut screen), with the same `sizes`.
   */
  const preloadPicture = (
    result: BootResult,
    first: (body: never) => Post | undefined,
    sizesOf: (post: Post) => string,
  ) => {
    let post: Post | undefined;
    try {
      post = result.status === 200 ? first(JSON.parse(result.body) as never) : undefined;
    } catch {
      // Not JSON: the app reports it.
    }
    if (!post) return;
    const sizes = sizesOf(post);
    const source = post.picture?.sources.find((candidate) => !candidate.media || matchMedia(candidate.media).matches);
    const image = { rel: 'preload', as: 'image', fetchpriority: 'high' };
    addLink(
      source
        ? { ...image, type: source.type, imagesrcset: source.srcset, imagesizes: sizes }
        : { ...image, href: post.picture?.url ?? post.postPic },
    );
  };

  // A visitor's shared page (a post, a profile, a tag): the server wrote its first API answers into the page
  // (and the preload of its picture); the app takes them as if this script had asked. Signed in, the viewer's
  // flags need the token. A viewer's Home drawn on the server (issue 22) was read with their token: taken when
  // the head script found the stored token theirs (head.ts), by no one else. Its token check is keyed `POST /api/…`.
  const viewerPage = !!document.querySelector('meta[name=viewer]');
  const theirs = viewerPage ? document.documentElement.dataset.otherViewer === undefined : !token;
  const inline = theirs ? document.getElementById(PAGE_DATA_ID) : null;
  try {
    const answers = JSON.parse(inline?.textContent || '{}') as Record<string, unknown>;
    for (const path in answers) {
      const result: BootResult = { status: 200, body: JSON.stringify(answers[path]) };
      state.requests[path.startsWith('POST ') ? path : bootKey('GET', path)] = {
        promise: Promise.resolve(result),
        result,
      };
    }
  } catch {
    // Not JSON: the app asks itself.
  }
  const answered = (method: string, path: string) => !!state.requests[bootKey(method, path)];

  if (!token || !isSignedInRoute(route)) return;
  // In the order they are needed (the embedded database answers one query at a time): what leads to the
  // picture first, then the token check the sign-in guard waits for, then what is drawn beside or below.
  const feed = route === 'feed' || route === 'explore';
  if (feed) {
    const sort = new URLSearchParams(window.location.search).get('sort') as Sort;
    const list = pagePath(FEED_ROUTES[route], SORTS.includes(sort) ? sort : 'latest', null);
    // Drawn on the server: its first picture is in the page already.
    if (!answered('GET', list)) {
      void send('GET', list).then((result) =>
        preloadPicture(
          result,
          (page: PostPage) => page.posts[0],
          () => POST_PICTURE_SIZES.feed,
        ),
      );
    }
  } else if (postId) {
    void send('GET', postPath(postId)).then((result) =>
      preloadPicture(
        result,
        (body: PostResponse) => body.post,
        (post) =>
          // A server that does not list `media` yet names the first picture only.
          postPageSizes(pageBoxRatio(post.media ?? (post.picture ? [post.picture] : []))),
      ),
    );
  }
  if (!answered('POST', '/api/auth/verify')) void send('POST', '/api/auth/verify', { encodedToken: token });
  if (feed) {
    if (!answered('GET', suggestionsPath(SUGGESTIONS_SHOWN))) void send('GET', suggestionsPath(SUGGESTIONS_SHOWN));
  } else if (postId) void send('GET', commentPagePath(postId, 'oldest', null));
}
