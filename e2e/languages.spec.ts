// Every artist in their own language (issue 43): a visitor whose browser speaks Japanese reads the app in Japanese;
// a signed-in person switches to Arabic in Settings, the page turns right to left at once without a reload, and the
// choice follows the account to another browser. At a phone's width, both themes.
import { expect, test } from '@playwright/test';
import { authOf, createTextPost, createUser, expectNoAxeViolations, useSession, useTheme } from './support/helpers.ts';

test("a visitor gets their browser's language, with the artist's words as written", async ({ browser, request }) => {
  const artist = await createUser(request);
  const post = await createTextPost(request, artist, 'Night heron, gouache on paper');
  const context = await browser.newContext({ locale: 'ja-JP', viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  await page.goto(`/posts/${post._id}`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(page.getByRole('link', { name: 'ログイン' }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: '新規登録' }).first()).toBeVisible();
  // The work's words are the artist's, untouched.
  await expect(page.getByText('Night heron, gouache on paper').first()).toBeVisible();
  await context.close();
});

for (const theme of ['light', 'dark'] as const) {
  test(`Settings switches to Arabic at once, right to left, and it follows the account (${theme})`, async ({
    page,
    browser,
    request,
  }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await useTheme(page, theme);
    const person = await createUser(request);
    await useSession(page, person);
    await page.goto('/settings');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');

    await page.getByRole('combobox', { name: 'Language of Share Arts' }).selectOption('ar');
    // No reload: the same page, now in Arabic and laid out right to left.
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
    await expect(page.getByRole('combobox', { name: 'لغة Share Arts' })).toHaveValue('ar');
    await expect(page.getByRole('link', { name: 'الإعدادات' }).first()).toBeAttached();
    await expect
      .poll(
        async () =>
          (await (await request.get(`/api/users/by-username/${person.username}`, { headers: authOf(person) })).json())
            .user.settings.language,
      )
      .toBe('ar');
    await expectNoAxeViolations(page);

    // Another browser, in English: once signed in, the account's language wins.
    const elsewhere = await browser.newContext({ locale: 'en-US', viewport: { width: 375, height: 740 } });
    const other = await elsewhere.newPage();
    await useSession(other, person);
    await other.goto('/settings');
    await expect(other.locator('html')).toHaveAttribute('lang', 'ar');
    await expect(other.locator('html')).toHaveAttribute('dir', 'rtl');
    await elsewhere.close();

    // "Your browser's" follows the browser again (English here).
    await page.getByRole('combobox', { name: 'لغة Share Arts' }).selectOption('browser');
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    await expect(page.getByRole('combobox', { name: 'Language of Share Arts' })).toHaveValue('browser');
  });
}
