import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createTestApp, signUp, type SignedUp, type TestContext } from '../test/helpers.js';

/**
 * What belongs to one person alone (issue 18, failure 4): their email, their Saved list (`bookmarks`)
 * and its count. Every answer that carries a user is read as a stranger, as a signed-out visitor and as
 * the owner: the owner's own user object carries all three; no other user object does, and the owner's
 * email never appears in anyone else's answer.
 */

let ctx: TestContext;
let owner: SignedUp;
let stranger: SignedUp;
let savedPostId: string;
let strangerPostId: string;
const ownerEmail = `owner-${Date.now()}@private.example.com`;
const PRIVATE_FIELDS = ['email', 'emailVerified', 'bookmarks', 'bookmarkCount'] as const;

type Viewer = 'owner' | 'stranger' | 'anonymous';
const VIEWERS: Viewer[] = ['owner', 'stranger', 'anonymous'];

const tokenOf = (viewer: Viewer) =>
  viewer === 'owner' ? owner.token : viewer === 'stranger' ? stranger.token : undefined;
const idOf = (viewer: Viewer) =>
  viewer === 'owner' ? owner.user._id : viewer === 'stranger' ? stranger.user._id : undefined;
const withToken = (viewer: Viewer): Record<string, string> => {
  const token = tokenOf(viewer);
  return token ? { authorization: token } : {};
};

/** Every user object (a User or a UserCard: it has a username and a follower count) in a body. */
function usersIn(value: unknown, found: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(value)) for (const item of value) usersIn(item, found);
  else if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if (typeof object.username === 'string' && 'followerCount' in object) found.push(object);
    for (const child of Object.values(object)) usersIn(child, found);
  }
  return found;
}

/** How to ask each route as `viewer` (after setting up what the ask needs); null when it needs a token. */
type Ask = (viewer: Viewer) => Promise<InjectOptions | null>;
/** The other party of a follow: the owner follows the stranger, anyone else the owner. */
const followee = (viewer: Viewer) => (viewer === 'owner' ? stranger : owner);
const follow = (viewer: Viewer, path: 'follow' | 'unfollow') =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/users/${path}/${followee(viewer).user._id}`,
    headers: withToken(viewer),
  });

const ROUTES: Record<string, { ask: Ask; ownUser?: (body: Record<string, unknown>) => unknown }> = {
  'GET /api/users/:userId': {
    ask: async () => ({ method: 'GET', url: `/api/users/${owner.user._id}` }),
    ownUser: (body) => body.user,
  },
  'GET /api/users/by-username/:username': {
    ask: async () => ({ method: 'GET', url: `/api/users/by-username/${owner.user.username.toUpperCase()}` }),
    ownUser: (body) => body.user,
  },
  'GET /api/users': { ask: async () => ({ method: 'GET', url: '/api/users?limit=50' }) },
  'GET /api/users/suggestions': {
    ask: async (v) => (v === 'anonymous' ? null : { method: 'GET', url: '/api/users/suggestions' }),
  },
  'GET /api/search': { ask: async () => ({ method: 'GET', url: `/api/search?q=${owner.user.username}` }) },
  'POST /api/users/follow/:followUserId': {
    ask: async (v) => {
      if (v === 'anonymous') return null;
      await follow(v, 'unfollow');
      return { method: 'POST', url: `/api/users/follow/${followee(v).user._id}` };
    },
    ownUser: (body) => body.user,
  },
  'POST /api/users/unfollow/:followUserId': {
    ask: async (v) => {
      if (v === 'anonymous') return null;
      await follow(v, 'follow');
      return { method: 'POST', url: `/api/users/unfollow/${followee(v).user._id}` };
    },
    ownUser: (body) => body.user,
  },
  'POST /api/users/edit': {
    ask: async (v) =>
      v === 'anonymous' ? null : { method: 'POST', url: '/api/users/edit', payload: { userData: {} } },
    ownUser: (body) => body.user,
  },
  'POST /api/auth/verify': {
    ask: async (v) =>
      v === 'anonymous' ? null : { method: 'POST', url: '/api/auth/verify', payload: { encodedToken: tokenOf(v) } },
    ownUser: (body) => body.user,
  },
  'POST /api/auth/login': {
    ask: async (v) => {
      const who = v === 'owner' ? owner : v === 'stranger' ? stranger : null;
      return (
        who && {
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: who.user.username, password: who.password },
        }
      );
    },
    ownUser: (body) => body.foundUser,
  },
  'GET /api/posts': { ask: async () => ({ method: 'GET', url: '/api/posts' }) },
  'GET /api/posts/:id': { ask: async () => ({ method: 'GET', url: `/api/posts/${savedPostId}` }) },
  'GET /api/posts/user/:username': {
    ask: async () => ({ method: 'GET', url: `/api/posts/user/${owner.user.username}` }),
  },
  'GET /api/comments/:postId': { ask: async () => ({ method: 'GET', url: `/api/comments/${savedPostId}` }) },
  'GET /api/feed': { ask: async (v) => (v === 'anonymous' ? null : { method: 'GET', url: '/api/feed' }) },
  'GET /api/notifications': {
    ask: async (v) => (v === 'anonymous' ? null : { method: 'GET', url: '/api/notifications' }),
  },
  // Pins: the owner pinned the post they saved (with their comment on it); the stranger pins their own.
  'GET /api/users/:username/pins': {
    ask: async () => ({ method: 'GET', url: `/api/users/${owner.user.username}/pins` }),
  },
  'POST /api/posts/:postId/pin': {
    ask: async (v) => (v === 'anonymous' ? null : { method: 'POST', url: `/api/posts/${pinnable(v)}/pin` }),
  },
  'DELETE /api/posts/:postId/pin': {
    ask: async (v) => {
      if (v === 'anonymous') return null;
      await ctx.app.inject({ method: 'POST', url: `/api/posts/${pinnable(v)}/pin`, headers: withToken(v) });
      return { method: 'DELETE', url: `/api/posts/${pinnable(v)}/pin` };
    },
  },
  'PUT /api/users/me/pins': {
    ask: async (v) => {
      if (v === 'anonymous') return null;
      await ctx.app.inject({ method: 'POST', url: `/api/posts/${pinnable(v)}/pin`, headers: withToken(v) });
      return { method: 'PUT', url: '/api/users/me/pins', payload: { postIds: [pinnable(v)] } };
    },
  },
};

/** The post a viewer may pin: their own. */
const pinnable = (viewer: Viewer) => (viewer === 'owner' ? savedPostId : strangerPostId);

beforeAll(async () => {
  ctx = await createTestApp();
  owner = await signUp(ctx.app, { email: ownerEmail });
  stranger = await signUp(ctx.app, { email: 'stranger@example.com' });
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/posts',
    headers: { authorization: owner.token },
    payload: { content: 'a post the owner saves' },
  });
  savedPostId = created.json().post._id;
  const strangers = await ctx.app.inject({
    method: 'POST',
    url: '/api/posts',
    headers: { authorization: stranger.token },
    payload: { content: 'a post of the stranger' },
  });
  strangerPostId = strangers.json().post._id;
  for (const [url, who] of [
    [`/api/users/bookmark/${savedPostId}`, owner],
    [`/api/posts/${savedPostId}/comment`, owner],
    [`/api/users/follow/${owner.user._id}`, stranger],
    [`/api/posts/${savedPostId}/pin`, owner],
  ] as const) {
    const payload = url.endsWith('/comment') ? { commentData: { content: 'mine' } } : undefined;
    const response = await ctx.app.inject({ method: 'POST', url, headers: { authorization: who.token }, payload });
    expect(response.statusCode, url).toBeLessThan(300);
  }
});
afterAll(() => ctx?.close());

describe('fields that belong to their owner alone', () => {
  for (const [route, { ask, ownUser }] of Object.entries(ROUTES)) {
    for (const viewer of VIEWERS) {
      it(`${route} as ${viewer === 'owner' ? 'the owner' : viewer === 'stranger' ? 'a stranger' : 'a signed-out visitor'}`, async () => {
        const request = await ask(viewer);
        if (!request) return;
        const response = await ctx.app.inject({ ...request, headers: { ...withToken(viewer), ...request.headers } });
        expect(response.statusCode, response.body).toBeLessThan(300);
        const body = response.json() as Record<string, unknown>;
        const people = usersIn(body);
        expect(people.length + (ownUser ? 0 : 1), 'the answer carries users').toBeGreaterThan(0);
        for (const person of people) {
          const mine = person._id === idOf(viewer);
          for (const field of PRIVATE_FIELDS) {
            expect(field in person, `${field} of ${String(person.username)}`).toBe(mine && !isCard(person));
          }
        }
        if (viewer !== 'owner') expect(response.body).not.toContain(ownerEmail);
        if (viewer === 'owner' && ownUser) {
          const me = ownUser(body) as Record<string, unknown>;
          expect(me).toMatchObject({ _id: owner.user._id, email: ownerEmail, bookmarkCount: 1 });
          expect(me.bookmarks).toEqual([{ _id: savedPostId }]);
        }
      });
    }
  }
});

/** A user in a list: never carries private fields, even your own entry. */
const isCard = (person: Record<string, unknown>) => !('createdAt' in person);

describe('the Atom feed', () => {
  for (const viewer of VIEWERS) {
    it(`of the owner, read by ${viewer === 'anonymous' ? 'a feed reader' : `the ${viewer}`}, carries no private field`, async () => {
      const response = await ctx.app.inject({
        method: 'GET',
        url: `/api/users/${owner.user.username}/feed.atom`,
        headers: withToken(viewer),
      });
      expect(response.statusCode, response.body).toBe(200);
      // The feed is public and the same for everyone: the owner's own email is not in it either.
      expect(response.body).toContain('a post the owner saves');
      expect(response.body).not.toContain(ownerEmail);
      expect(response.body).not.toMatch(/email|bookmark/i);
    });
  }
});
