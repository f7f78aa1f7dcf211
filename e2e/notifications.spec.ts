import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import {
  authOf,
  createComment,
  createTextPost,
  createUser,
  expectNoAxeViolations,
  followViaApi,
  mainNav,
  useSession,
  useTheme,
  type CreatedUser,
} from './support/helpers.ts';

// ---- the live stream, seen from the test ----------------------------------------------------------

interface LiveFrames {
  sent: { type: string; posts?: string[] }[];
  received: { type: string }[];
}

/** Records the frames of the page's live stream (WebSocket /api/live), to wait for it to be ready. */
function recordLiveFrames(page: Page): LiveFrames {
  const frames: LiveFrames = { sent: [], received: [] };
  page.on('websocket', (socket) => {
    if (!socket.url().endsWith('/api/live')) return;
    socket.on('framesent', ({ payload }) => frames.sent.push(JSON.parse(String(payload))));
    socket.on('framereceived', ({ payload }) => frames.received.push(JSON.parse(String(payload))));
  });
  return frames;
}

/** Waits until the stream is signed in and watches `postId` (the card is on screen). */
async function expectWatching(frames: LiveFrames, postId: string) {
  await expect.poll(() => frames.received.some((frame) => frame.type === 'ready')).toBe(true);
  await expect.poll(() => frames.sent.some((frame) => frame.posts?.includes(postId))).toBe(true);
}

/** A signed-in page of its own (its own storage), as another person at another computer. */
async function openAs(browser: Browser, user: CreatedUser, viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await useSession(page, user);
  return { context, page, frames: recordLiveFrames(page) };
}

function bell(page: Page): Locator {
  return page.getByRole('banner').getByRole('link', { name: /^Notifications/ });
}

function liveRegion(page: Page): Locator {
  return page.getByRole('log', { name: 'Live updates' });
}

// ---- the flow of the issue ------------------------------------------------------------------------

test.describe('notifications and live updates', () => {
  test('a like and a comment reach the author at once: bell, title, live region, like count, the list', async ({
    browser,
    request,
  }) => {
    test.setTimeout(60_000);
    const author = await createUser(request, { fullname: 'Bea Author' });
    const fan = await createUser(request, { fullname: 'Ari Fan' });
    const content = `Live sketch ${Date.now().toString(36)}`;
    const post = await createTextPost(request, author, content);

    const b = await openAs(browser, author);
    await b.page.goto('/');
    const card = b.page.getByRole('article').filter({ hasText: content });
    await expect(card.getByText('0 likes')).toBeVisible();
    await expect(bell(b.page)).toHaveAccessibleName('Notifications');
    await expect(b.page).toHaveTitle('Home | Share Arts');
    await expectWatching(b.frames, post._id);

    // The fan, at another computer, likes the post and comments on it through the app.
    const a = await openAs(browser, fan);
    await a.page.goto(`/posts/${post._id}`);
    await a.page.getByRole('article').getByRole('button', { name: 'Like' }).click();
    await expect(a.page.getByRole('article').getByText('1 like', { exact: true })).toBeVisible();

    // The author's page, never reloaded, follows.
    await expect(bell(b.page)).toHaveAccessibleName('Notifications, 1 unread');
    await expect(bell(b.page)).toContainText('1');
    await expect(liveRegion(b.page)).toContainText(`${fan.username} liked your post`);
    await expect(card.getByText('1 like', { exact: true })).toBeVisible();
    await expect(b.page).toHaveTitle('(1) Home | Share Arts');

    const form = a.page.getByRole('form', { name: 'Add a comment' });
    await form.getByRole('textbox', { name: 'Add a comment' }).fill('Love the colours');
    await form.getByRole('button', { name: 'Post' }).click();
    await expect(bell(b.page)).toHaveAccessibleName('Notifications, 2 unread');
    await expect(liveRegion(b.page)).toContainText(`${fan.username} commented on your post`);
    await expect(b.page).toHaveTitle('(2) Home | Share Arts');

    // The list: one group each, unread, with who and what.
    await bell(b.page).click();
    await expect(b.page).toHaveURL('/notifications');
    await expect(b.page).toHaveTitle('(2) Notifications | Share Arts');
    const list = b.page.getByRole('main').getByRole('listitem');
    await expect(list).toHaveCount(2);
    const liked = b.page.getByRole('link', { name: `Unread: ${fan.username} liked your post`, exact: true });
    const commented = b.page.getByRole('link', { name: `Unread: ${fan.username} commented on your post`, exact: true });
    await expect(liked).toBeVisible();
    await expect(commented).toBeVisible();
    await expect(list.filter({ has: commented })).toContainText('“Love the colours”');
    await expectNoAxeViolations(b.page);

    // Opening a group marks it read and leads to the post.
    await commented.click();
    await expect(b.page).toHaveURL(`/posts/${post._id}#comments`);
    await expect(bell(b.page)).toHaveAccessibleName('Notifications, 1 unread');
    await b.page.goBack();
    await expect(
      b.page.getByRole('link', { name: `${fan.username} commented on your post`, exact: true }),
    ).toBeVisible();
    await expect(liked).toBeVisible();

    // Upvotes of one comment are one group, however many people vote. (Likes group the same way.)
    const own = await createComment(request, author, post._id, 'Thanks for looking!');
    const other = await createUser(request);
    for (const voter of [fan, other]) {
      const vote = await request.post(`/api/comments/upvote/${post._id}/${own._id}`, { headers: authOf(voter) });
      expect(vote.status(), await vote.text()).toBe(201);
    }
    await expect(
      b.page.getByRole('link', {
        name: `Unread: ${other.username} and ${fan.username} upvoted your comment`,
        exact: true,
      }),
    ).toBeVisible();
    await expect(list).toHaveCount(3);
    await expect(bell(b.page)).toHaveAccessibleName('Notifications, 2 unread');

    // Mark all as read: the bell and the title lose their count.
    await b.page.getByRole('button', { name: 'Mark all as read' }).click();
    await expect(bell(b.page)).toHaveAccessibleName('Notifications');
    await expect(b.page).toHaveTitle('Notifications | Share Arts');
    await expect(b.page.getByRole('link', { name: /^Unread:/ })).toHaveCount(0);

    await a.context.close();
    await b.context.close();
  });

  test('the bell works with the keyboard alone, and is in the bottom bar on a phone', async ({ page, request }) => {
    const user = await createUser(request);
    await useSession(page, user);
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();

    // Tab from the top of the page: skip link, brand, search, theme, then the bell.
    let reached = false;
    for (let step = 0; step < 8 && !reached; step += 1) {
      await page.keyboard.press('Tab');
      reached = await bell(page).evaluate((element) => element === document.activeElement);
    }
    expect(reached, 'the bell is reached by Tab from the top of the page').toBe(true);
    expect(await bell(page).evaluate((element) => element.matches(':focus-visible'))).toBe(true);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/notifications');
    await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No notifications yet' })).toBeVisible();
    await expect(bell(page)).toHaveAttribute('aria-current', 'page');

    await page.setViewportSize({ width: 375, height: 740 });
    await expect(bell(page)).toBeHidden();
    const barLink = mainNav(page).getByRole('link', { name: /^Notifications/ });
    await expect(barLink).toBeVisible();
    await expect(barLink).toHaveAttribute('aria-current', 'page');
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(barLink).toBeHidden();
  });

  test('the list passes axe in the dark theme, unread and read', async ({ page, request }) => {
    const author = await createUser(request);
    const fan = await createUser(request);
    await followViaApi(request, fan, author);
    await useTheme(page, 'dark');
    await useSession(page, author);
    await page.goto('/notifications');
    await expect(page.getByRole('link', { name: `Unread: ${fan.username} started following you` })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await expect(page.getByRole('link', { name: `${fan.username} started following you`, exact: true })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('a new post by someone followed: a pill over Home that moves nothing, and a click shows the post', async ({
    browser,
    request,
  }) => {
    test.setTimeout(60_000);
    const reader = await createUser(request);
    const artist = await createUser(request);
    await followViaApi(request, reader, artist);
    const older = await createTextPost(request, artist, `Older work ${Date.now().toString(36)}`);

    const { context, page, frames } = await openAs(browser, reader);
    await page.goto('/');
    const feed = page.getByRole('feed');
    const first = feed.getByRole('article').first();
    await expect(first).toContainText('Older work');
    await expectWatching(frames, older._id);
    const before = await first.boundingBox();

    const fresh = `Fresh work ${Date.now().toString(36)}`;
    await createTextPost(request, artist, fresh);
    const pill = page.getByRole('button', { name: '1 new post' });
    await expect(pill).toBeVisible();
    // Nothing moved under the reader, and the new post is not in the list yet.
    expect(await first.boundingBox()).toEqual(before);
    await expect(first).toContainText('Older work');
    await expect(feed.getByText(fresh)).toHaveCount(0);

    await pill.click();
    await expect(feed.getByRole('article').first()).toContainText(fresh);
    await expect(pill).toBeHidden();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await context.close();
  });
});
