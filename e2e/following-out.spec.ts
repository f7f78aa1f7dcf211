// Following out (issue 39): search finds people and works on other servers by their @handle or address. This
// server cannot reach any other from here, so the spec follows the way through the web app up to the lookup's
// answer: a server that cannot be reached says so in place, and this server's own handles, which the lookup answers
// without fetching, open the profile here. What a remote person's profile and works look
// like (their handle whole, "View on …", Requested, "from …") is the web app's unit tests' (profile-header,
// post-card, post-source), and what arrives from the other server is federation.following-out.test.ts's.
import { expect, test, type Page } from '@playwright/test';
import { createUser, expectNoAxeViolations, useSession } from './support/helpers.ts';

/** The search page's field (not the header's combobox). */
function searchField(page: Page) {
  return page.getByRole('main').getByRole('searchbox', { name: 'Search people and posts' });
}

function lookupOffer(page: Page, name: string | RegExp) {
  return page.getByRole('main').getByRole('button', { name });
}

test.describe('following out: looking up people and works on other servers', () => {
  test('a handle on a server that cannot be reached: offered, looked up on Enter, the failure said in place', async ({
    page,
    request,
  }) => {
    const viewer = await createUser(request);
    await useSession(page, viewer);
    await page.goto('/search');

    await searchField(page).fill('@nobody@nowhere.invalid');
    await searchField(page).press('Enter');
    await expect(page).toHaveURL(/\/search\?q=%40nobody%40nowhere.invalid$/);
    await expect(lookupOffer(page, 'Look up @nobody@nowhere.invalid on nowhere.invalid')).toBeVisible();
    // The one result: nothing here is searched for a handle.
    await expect(page.getByRole('heading', { name: 'People', level: 2 })).toHaveCount(0);
    // The lookup's sentence (nobody there, or the server did not answer), in place; the text is kept.
    const alert = page.getByRole('main').getByRole('alert').filter({ hasText: 'nowhere.invalid' });
    await expect(alert).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('main').getByText('Looking…')).toHaveCount(0);
    await expect(searchField(page)).toHaveValue('@nobody@nowhere.invalid');
    await expect(page).toHaveURL(/\/search\?/);
  });

  test('what is no handle nor address is searched for here, with no lookup offered', async ({ page, request }) => {
    const viewer = await createUser(request);
    await useSession(page, viewer);
    await page.goto(`/search?q=${encodeURIComponent('me@home')}`);
    await expect(page.getByRole('heading', { name: 'People', level: 2 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'On another server' })).toHaveCount(0);
  });

  test('the header offers the lookup first; choosing it opens the profile a handle of this server names', async ({
    page,
    request,
  }) => {
    const [viewer, artist] = await Promise.all([createUser(request), createUser(request)]);
    await useSession(page, viewer);
    await page.goto('/explore');
    const host = new URL(page.url()).host;

    const box = page.getByRole('banner').getByRole('combobox', { name: 'Search' });
    await box.fill(`@${artist.username}@${host}`);
    const option = page.getByRole('option', { name: `Look up @${artist.username}@${host} on ${host}` });
    await expect(option).toBeVisible();
    await box.press('ArrowDown');
    await expect(option).toHaveAttribute('aria-selected', 'true');
    await box.press('Enter');

    await expect(page).toHaveURL(new RegExp(`/${artist.username}$`), { timeout: 20_000 });
    await expect(page.getByRole('heading', { level: 1, name: artist.fullname })).toBeVisible();
    // Back comes to the search page without looking it up again.
    await page.goBack();
    await expect(page).toHaveURL(/\/search\?q=/);
    await expect(lookupOffer(page, `Look up @${artist.username}@${host} on ${host}`)).toBeVisible();
    await expect(page).toHaveURL(/\/search\?q=[^&]*$/);
  });

  test('a pasted address on another server: offered alone, looked up on Enter, the failure said in place', async ({
    page,
    request,
  }) => {
    const viewer = await createUser(request);
    await useSession(page, viewer);
    await page.goto('/search');
    const address = 'https://nowhere.invalid/@bob/113456789';

    await searchField(page).fill(address);
    await searchField(page).press('Enter');
    await expect(lookupOffer(page, /^Look up this address on nowhere\.invalid/)).toBeVisible();
    // An address names no one and nothing here: no people or posts are searched for.
    await expect(page.getByRole('heading', { name: 'Posts', level: 2 })).toHaveCount(0);
    await expect(page.getByRole('main').getByRole('alert').filter({ hasText: 'nowhere.invalid' })).toBeVisible({
      timeout: 20_000,
    });
    await expect(searchField(page)).toHaveValue(address);
  });

  for (const width of [375, 1280]) {
    test(`a long handle fits the search page at ${width} px, and the page passes axe`, async ({ page, request }) => {
      const viewer = await createUser(request);
      await useSession(page, viewer);
      await page.setViewportSize({ width, height: 800 });
      // A 60-character handle.
      const handle = `${'a'.repeat(24)}@${'long-server-name-'.repeat(2)}nowhere.invalid`;
      expect(handle.length).toBeGreaterThanOrEqual(60);
      await page.goto(`/search?q=${encodeURIComponent(`@${handle}`)}`);
      await expect(lookupOffer(page, `Look up @${handle} on ${handle.split('@')[1]}`)).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expectNoAxeViolations(page);
    });
  }
});
