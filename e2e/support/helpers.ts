// Helpers shared by the end-to-end specs. Locators are accessible ones only (role, label, text),
// with the names the web app promises, in the language the test runs in (say.ts).
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { say } from './say.ts';

export const TEST_ACCOUNT = { username: 'mira', password: 'share-arts-guest' } as const;
export const SEEDED_USERNAMES = ['mira', 'theo', 'sana', 'jules', 'kai'] as const;

export interface NewUser {
  fullname: string;
  email: string;
  username: string;
  password: string;
}

export interface CreatedUser extends NewUser {
  token: string;
}

let counter = 0;

/** Sign-up details no other test (or earlier run against the same database) uses. */
export function uniqueUser(overrides: Partial<NewUser> = {}): NewUser {
  counter += 1;
  const tag = `${Date.now().toString(36)}${process.pid.toString(36)}${counter.toString(36)}${Math.floor(
    Math.random() * 1296,
  ).toString(36)}`;
  const username = `e2e${tag}`.toLowerCase();
  return {
    fullname: 'Ada Painter',
    email: `${username}@example.test`,
    username,
    password: `pw-${tag}-secret`,
    ...overrides,
  };
}

/** Creates a user through the API (POST /api/auth/signup), as a test's starting point. */
export async function createUser(request: APIRequestContext, overrides: Partial<NewUser> = {}): Promise<CreatedUser> {
  const user = uniqueUser(overrides);
  const response = await request.post('/api/auth/signup', { data: user });
  expect(response.status(), `signup of ${user.username}: ${await response.text()}`).toBe(201);
  const body = (await response.json()) as { encodedToken?: unknown };
  expect(typeof body.encodedToken, 'signup returns encodedToken').toBe('string');
  return { ...user, token: body.encodedToken as string };
}

/** Signs up through the signup page; leaves the page wherever the app sends a new user. */
export async function signUp(page: Page, user: NewUser & { confirmPassword?: string }): Promise<void> {
  await page.goto('/signup');
  await page.getByLabel(say('Fullname'), { exact: true }).fill(user.fullname);
  await page.getByLabel(say('Email'), { exact: true }).fill(user.email);
  await page.getByLabel(say('Username'), { exact: true }).fill(user.username);
  await page.getByLabel(say('Password'), { exact: true }).fill(user.password);
  await page.getByLabel(say('Re-Enter Password'), { exact: true }).fill(user.confirmPassword ?? user.password);
  await page.getByRole('button', { name: say('Sign up'), exact: true }).click();
}

/** Logs in through the login page (which must be open). */
export async function logIn(page: Page, credentials: { username: string; password: string }): Promise<void> {
  await page.getByLabel(say('Username'), { exact: true }).fill(credentials.username);
  await page.getByLabel(say('Password'), { exact: true }).fill(credentials.password);
  await page.getByRole('button', { name: say('Login'), exact: true }).click();
}

/** Starts the page signed in as `user`, by putting its token where the app keeps it. */
export async function useSession(page: Page, user: { token: string }): Promise<void> {
  await page.addInitScript((token) => {
    if (!window.sessionStorage.getItem('e2e-session-set')) {
      window.localStorage.setItem('token', token);
      window.sessionStorage.setItem('e2e-session-set', '1');
    }
  }, user.token);
}

/** Starts the page in the given theme, by putting it where the app keeps it. */
export async function useTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.addInitScript((value) => window.localStorage.setItem('theme', value), theme);
}

export function mainNav(page: Page) {
  return page.getByRole('navigation', { name: say('Main') });
}

/** The toast carrying `text` (react-toastify renders each toast with role "alert"). */
export function toast(page: Page, text: string) {
  return page.getByRole('alert').filter({ hasText: text });
}

/**
 * Starts recording the text of every toast the page shows (call before page.goto); answers a function that
 * reads them all, also those that have already closed.
 */
export async function recordToasts(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { e2eToasts: string[] }).e2eToasts = seen;
    new MutationObserver(() => {
      for (const alert of Array.from(document.querySelectorAll<HTMLElement>('[role="alert"]'))) {
        if (alert.dataset.e2eSeen) continue;
        alert.dataset.e2eSeen = '1';
        seen.push(alert.textContent ?? '');
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  return () => page.evaluate(() => [...(window as unknown as { e2eToasts: string[] }).e2eToasts]);
}

/** Fails with a readable list when axe finds WCAG 2 A or AA violations on the page. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const summary = results.violations.map(
    (v) =>
      `${v.id} (${v.impact ?? 'n/a'}): ${v.help}\n` +
      v.nodes.map((n) => `    ${n.target.join(' ')} — ${n.failureSummary?.split('\n').join(' ')}`).join('\n'),
  );
  expect(summary, `accessibility violations on ${page.url()}`).toEqual([]);
}

/** The authorization header of a user created with `createUser`. */
export function authOf(user: { token: string }): Record<string, string> {
  return { authorization: `Bearer ${user.token}` };
}

/** A page of posts as GET /api/posts answers it (only the fields the specs read). */
export interface PostSummary {
  _id: string;
  userId: string;
  username: string;
  content: string;
  likes: { likeCount: number };
}

/** The first page of everyone's posts, newest first. */
export async function listPosts(request: APIRequestContext, query = ''): Promise<PostSummary[]> {
  const response = await request.get(`/api/posts${query}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { posts: PostSummary[] }).posts;
}

/** Creates a text-only post through the API (set-up only); answers its id. */
export async function createPost(request: APIRequestContext, user: { token: string }, content: string) {
  const response = await request.post('/api/posts', {
    headers: { ...authOf(user), prefer: 'return=minimal' },
    data: { content },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { post: { _id: string; userId: string } }).post;
}

/** Comments on a post through the API (set-up only); answers the comment's id. */
export async function createComment(
  request: APIRequestContext,
  user: { token: string },
  postId: string,
  content: string,
) {
  const response = await request.post(`/api/posts/${postId}/comment`, {
    headers: { ...authOf(user), prefer: 'return=minimal' },
    data: { commentData: { content } },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { comment: { _id: string } }).comment;
}

/** The id of a user, looked up by username (GET /api/users/by-username/{username}). */
export async function userIdOf(request: APIRequestContext, username: string): Promise<string> {
  const response = await request.get(`/api/users/by-username/${encodeURIComponent(username)}`);
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { user: { _id: string } }).user._id;
}

/** `user` follows `target` through the API (set-up only). */
export async function followViaApi(
  request: APIRequestContext,
  user: CreatedUser,
  target: { username: string },
): Promise<void> {
  const targetId = await userIdOf(request, target.username);
  const response = await request.post(`/api/users/follow/${targetId}`, { headers: authOf(user) });
  expect(response.status(), await response.text()).toBe(200);
}

/** A text-only post by `user`, created through the API (set-up only). */
export async function createTextPost(
  request: APIRequestContext,
  user: CreatedUser,
  content: string,
): Promise<{ _id: string }> {
  const response = await request.post('/api/posts', {
    headers: { ...authOf(user), prefer: 'return=minimal' },
    data: { content },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { post: { _id: string } }).post;
}
