import { expect, test, type Browser, type Page } from '@playwright/test';
import {
  createTextPost,
  createUser,
  expectNoAxeViolations,
  followViaApi,
  useSession,
  useTheme,
  type CreatedUser,
} from './support/helpers.ts';

/** A signed-in page of its own (its own storage), as another person at another computer. */
async function openAs(browser: Browser, user: CreatedUser, viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await useSession(page, user);
  return { context, page };
}

function bell(page: Page) {
  return page.getByRole('banner').getByRole('link', { name: /^Notifications/ });
}

test.describe('mentions', () => {
  test('a mention chosen in the composer links to the person and notifies them live, once', async ({
    browser,
    request,
  }) => {
    test.setTimeout(60_000);
    const mentioned = await createUser(request, { fullname: 'Mona Mentioned' });
    const author = await createUser(request, { fullname: 'Abel Author' });
    // Someone else the prefix finds, whom the author does not follow.
    await createUser(request, { fullname: 'Sol Stranger' });
    await followViaApi(request, author, mentioned);

    // The person mentioned, at another computer, on Home.
    const b = await openAs(browser, mentioned);
    await b.page.goto('/');
    // The follow.
    await expect(bell(b.page)).toHaveAccessibleName('Notifications, 1 unread');

    // The author types @ and the first letters of a username every test user shares: the one followed comes first.
    const a = await openAs(browser, author, { width: 375, height: 800 });
    await useTheme(a.page, 'dark');
    await a.page.goto('/');
    await a.page.getByRole('button', { name: 'Add Post' }).first().click();
    const dialog = a.page.getByRole('dialog', { name: 'Add Post' });
    const text = dialog.getByRole('textbox', { name: 'What are you thinking?' });
    await text.click();
    await text.pressSequentially('Thanks @e2e');
    const list = dialog.getByRole('listbox', { name: 'People to mention' });
    const options = list.getByRole('option');
    await expect(options.first()).toContainText(`@${mentioned.username}`);
    await expect(options.nth(1)).toBeVisible();
    await expect(options.first()).toHaveAttribute('aria-selected', 'true');
    await expectNoAxeViolations(a.page);

    // ↓ then ↑ come back to the first; Tab puts it in.
    await a.page.keyboard.press('ArrowDown');
    await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
    await a.page.keyboard.press('ArrowUp');
    await a.page.keyboard.press('Tab');
    await expect(text).toHaveValue(`Thanks @${mentioned.username} `);
    await expect(text).toBeFocused();
    await text.pressSequentially('for the tips');
    await dialog.getByRole('button', { name: 'Post', exact: true }).click();
    await expect(dialog).toBeHidden();

    // Live, without a reload: the bell counts it and the list says who and where.
    await expect(bell(b.page)).toHaveAccessibleName('Notifications, 2 unread');
    await bell(b.page).click();
    await expect(
      b.page.getByRole('link', { name: `Unread: ${author.username} mentioned you in a post`, exact: true }),
    ).toBeVisible();

    // On the author's Home the mention is a link to the profile.
    const card = a.page.getByRole('article', { name: `Post by ${author.username}` }).first();
    const link = card.getByRole('link', { name: `@${mentioned.username}`, exact: true });
    await expect(link).toHaveAttribute('href', `/${mentioned.username}`);
    await link.click();
    await expect(a.page).toHaveURL(`/${mentioned.username}`);

    await a.context.close();
    await b.context.close();
  });

  test('the comment box suggests people after @ and notifies the one chosen', async ({ browser, request }) => {
    const artist = await createUser(request, { fullname: 'Rhea Artist' });
    const friend = await createUser(request, { fullname: 'Cato Friend' });
    const commenter = await createUser(request);
    const post = await createTextPost(request, artist, 'Work in progress');

    const b = await openAs(browser, friend);
    await b.page.goto('/');
    await expect(bell(b.page)).toHaveAccessibleName('Notifications');

    const a = await openAs(browser, commenter);
    await a.page.goto(`/posts/${post._id}`);
    const box = a.page.getByRole('form', { name: 'Add a comment' }).getByRole('textbox', { name: 'Add a comment' });
    await box.click();
    await box.pressSequentially(`look @${friend.username.slice(0, -1)}`);
    const option = a.page
      .getByRole('listbox', { name: 'People to mention' })
      .getByRole('option')
      .filter({ hasText: `@${friend.username}` });
    // By mouse.
    await option.click();
    await expect(box).toHaveValue(`look @${friend.username} `);
    await a.page.keyboard.press('Control+Enter');
    await expect(
      a.page.getByRole('article', { name: `Comment by ${commenter.username}` }).getByRole('link', {
        name: `@${friend.username}`,
      }),
    ).toBeVisible();

    await expect(bell(b.page)).toHaveAccessibleName('Notifications, 1 unread');
    await a.context.close();
    await b.context.close();
  });
});
