// Every public route works whichever one a visitor enters by (a bookmark, a shared link, a reload), and the
// app keeps working as they click on from there. Each test opens a fresh page at one address, so the app
// starts from that route, then follows links the way a person would.
import { expect, test, type Page } from '@playwright/test';
import { TEST_ACCOUNT, createUser, listPosts, logIn, mainNav, useSession } from './support/helpers.ts';

/** Collects uncaught errors, and the error screen a route shows when it crashed. */
function watchForCrashes(page: Page): () => Promise<void> {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && /QueryClient|React Router caught/.test(message.text())) {
      errors.push(message.text());
    }
  });
  return async () => {
    await expect(page.getByRole('heading', { name: 'Something went wrong' })).toHaveCount(0);
    expect(errors, 'errors in the page').toEqual([]);
  };
}

test.describe('entering by each public route, signed out', () => {
  test('/landing → Get Started → login → Create now → signup', async ({ page }) => {
    const noCrash = watchForCrashes(page);
    await page.goto('/landing');
    await page.getByRole('link', { name: 'Get Started' }).click();
    await expect(page).toHaveURL('/login');
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    await page.getByRole('link', { name: 'Create now' }).click();
    await expect(page).toHaveURL('/signup');
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await noCrash();
  });

  test('/landing → Get Started → log in lands on the feed', async ({ page }) => {
    const noCrash = watchForCrashes(page);
    await page.goto('/landing');
    await page.getByRole('link', { name: 'Get Started' }).click();
    await logIn(page, TEST_ACCOUNT);
    await expect(page).toHaveURL('/');
    await expect(page).toHaveTitle('Home | Share Arts');
    await noCrash();
  });

  test('/login → Create now → Login', async ({ page }) => {
    const noCrash = watchForCrashes(page);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Create now' }).click();
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await page.getByRole('link', { name: 'Login', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    await noCrash();
  });

  test('/signup → Login → Create now', async ({ page }) => {
    const noCrash = watchForCrashes(page);
    await page.goto('/signup');
    await page.getByRole('link', { name: 'Login', exact: true }).click();
    await expect(page).toHaveURL('/login');
    await page.getByRole('link', { name: 'Create now' }).click();
    await expect(page).toHaveURL('/signup');
    await noCrash();
  });

  test('/mockman → Back to Share Arts → landing → Get Started', async ({ page }) => {
    const noCrash = watchForCrashes(page);
    await page.goto('/mockman');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.getByRole('link', { name: 'Back to Share Arts' }).click();
    await expect(page).toHaveURL('/landing');
    await page.getByRole('link', { name: 'Get Started' }).click();
    await expect(page).toHaveURL('/login');
    await noCrash();
  });

  // A post, a profile and a tag page are open to visitors (shared-links.spec.ts).
  for (const [what, address] of [['an unknown address', '/no/such/page']] as const) {
    test(`${what} sends a visitor to /landing, and Get Started still works`, async ({ page }) => {
      const noCrash = watchForCrashes(page);
      await page.goto(address);
      await expect(page).toHaveURL('/landing');
      await page.getByRole('link', { name: 'Get Started' }).click();
      await expect(page).toHaveURL('/login');
      await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
      await noCrash();
    });
  }
});

test.describe('entering by each route, signed in', () => {
  test('a post → its author → one of their posts → Home', async ({ page, request }) => {
    const [post] = await listPosts(request, '?limit=1');
    if (!post) throw new Error('The sample data has no post.');
    await useSession(page, await createUser(request));
    const noCrash = watchForCrashes(page);
    await page.goto(`/posts/${post._id}`);
    await expect(page.getByRole('heading', { name: 'Post', exact: true })).toBeVisible();
    await page.getByRole('article').getByRole('link', { name: post.username, exact: true }).click();
    await expect(page).toHaveURL(`/${post.username}`);
    // The profile shows their works as a grid; a work opens its own post.
    const work = page
      .getByRole('grid', { name: `Posts by @${post.username}` })
      .getByRole('link')
      .first();
    const href = await work.getAttribute('href');
    expect(href).toMatch(/^\/posts\/[0-9a-f-]{36}$/);
    await work.click();
    await expect(page).toHaveURL(href!);
    await expect(page.getByRole('article', { name: `Post by ${post.username}` })).toBeVisible();
    await mainNav(page).getByRole('link', { name: 'Home', exact: true }).click();
    await expect(page).toHaveURL('/');
    await noCrash();
  });

  test('a profile → Explore → Settings', async ({ page, request }) => {
    await useSession(page, await createUser(request));
    const noCrash = watchForCrashes(page);
    await page.goto(`/${TEST_ACCOUNT.username}`);
    await expect(page.getByRole('heading', { name: /mira/i }).first()).toBeVisible();
    await mainNav(page).getByRole('link', { name: 'Explore', exact: true }).click();
    await expect(page).toHaveURL('/explore');
    await mainNav(page).getByRole('link', { name: 'Settings', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Update Profile' })).toBeVisible();
    await noCrash();
  });

  test('a page that does not exist → Back to Home', async ({ page, request }) => {
    await useSession(page, await createUser(request));
    const noCrash = watchForCrashes(page);
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await expect(page).toHaveURL('/');
    await expect(page).toHaveTitle('Home | Share Arts');
    await noCrash();
  });

  test('/mockman → Back to Share Arts → Home', async ({ page, request }) => {
    await useSession(page, await createUser(request));
    const noCrash = watchForCrashes(page);
    await page.goto('/mockman');
    await page.getByRole('link', { name: 'Back to Share Arts' }).click();
    await expect(page).toHaveURL('/');
    await expect(page).toHaveTitle('Home | Share Arts');
    await noCrash();
  });

  test('/landing → Get Started goes on to the feed', async ({ page, request }) => {
    await useSession(page, await createUser(request));
    const noCrash = watchForCrashes(page);
    await page.goto('/landing');
    await page.getByRole('link', { name: 'Get Started' }).click();
    await expect(page).toHaveURL('/');
    await expect(page).toHaveTitle('Home | Share Arts');
    await noCrash();
  });
});
