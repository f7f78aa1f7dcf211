import { describe, expect, it } from 'vitest';
import { isAppRoute, isCachedApi, isQueuedWrite } from './routes';

describe('service worker routes', () => {
  it('answers the app’s own pages from the shell, and asks the network for the pages the server draws', () => {
    for (const path of ['/', '/explore', '/notifications', '/settings/account', '/insights/posts/abc', '/drafts']) {
      expect(isAppRoute(path), path).toBe(true);
    }
    for (const path of ['/posts/abc', '/alice', '/tags/ink', '/alice/series/one', '/alice/collections/c']) {
      expect(isAppRoute(path), path).toBe(false);
    }
  });

  it('keeps the signed-in reads a person needs offline, and nothing else of the API', () => {
    for (const path of ['/api/feed', '/api/notifications', '/api/posts/user/alice', '/api/users/by-username/alice']) {
      expect(isCachedApi(path), path).toBe(true);
    }
    for (const path of ['/api/auth/verify', '/api/account/export', '/api/two-factor', '/api/admin/jobs']) {
      expect(isCachedApi(path), path).toBe(false);
    }
  });

  it('queues likes, bookmarks and comments, and no other write', () => {
    for (const path of [
      '/api/posts/like/p1',
      '/api/posts/dislike/p1',
      '/api/users/bookmark/p1',
      '/api/posts/p1/comment',
    ]) {
      expect(isQueuedWrite(path), path).toBe(true);
    }
    for (const path of ['/api/posts/p1', '/api/users/follow/u1', '/api/media', '/api/auth/login']) {
      expect(isQueuedWrite(path), path).toBe(false);
    }
  });
});
