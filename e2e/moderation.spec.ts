// Reports and moderation (issue 23): someone reports a post, the sample moderator hides it from the queue
// with a reason, its author sees it hidden with that reason, and the reporter is told the outcome.
import { expect, test, type Browser, type Page } from '@playwright/test';
import {
  createTextPost,
  createUser,
  expectNoAxeViolations,
  mainNav,
  toast,
  useSession,
  useTheme,
} from './support/helpers.ts';

const MODERATOR = { username: 'moderator', password: 'share-arts-moderator' } as const;

function uniqueText(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

async function pageAs(browser: Browser, user: { token: string }, theme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await useTheme(page, theme);
  await useSession(page, user);
  return page;
}

test.describe('moderation', () => {
  test('a report reaches the queue; the moderator hides the post with a reason; author and reporter are told', async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(90_000);
    const [reporter, author] = await Promise.all([createUser(request), createUser(request)]);
    const content = uniqueText('Totally original painting');
    const post = await createTextPost(request, author, content);

    // The reporter reports the post from its menu (the author's profile as a list of cards).
    await useSession(page, reporter);
    await page.goto(`/${author.username}?view=list`);
    const card = page.getByRole('article').filter({ hasText: content });
    await card.getByRole('button', { name: 'Post options' }).click();
    await page.getByRole('menuitem', { name: 'Report' }).click();
    const dialog = page.getByRole('dialog', { name: 'Report post' });
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Choose a reason for the report.');
    await dialog.getByRole('radio', { name: 'Stolen art' }).check();
    await dialog.getByLabel('Note (optional)').fill('This is my painting from 2019.');
    await expect(dialog.getByText('30 / 1000')).toBeVisible();
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Send' }).click();
    const thanks = page.getByRole('dialog', { name: 'Thank you' });
    await expect(thanks).toContainText('A moderator will review it; you will be notified of the outcome.');
    await thanks.getByRole('button', { name: 'Done' }).click();

    // A second report of the same post while the first is open: the server's refusal, as it is.
    await card.getByRole('button', { name: 'Post options' }).click();
    await page.getByRole('menuitem', { name: 'Report' }).click();
    await dialog.getByRole('radio', { name: 'Spam' }).check();
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(dialog.getByRole('alert')).toContainText('You have already reported this');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    // Not a moderator: /moderation is not a page, and the menu has no link to it.
    await page.goto('/moderation');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(mainNav(page).getByRole('link', { name: 'Moderation' })).toHaveCount(0);

    // The moderator finds it in the queue (axe in both themes), and hides it with a reason.
    const login = await request.post('/api/auth/login', { data: MODERATOR });
    expect(login.status(), await login.text()).toBe(200);
    const moderator = { token: ((await login.json()) as { encodedToken: string }).encodedToken };
    for (const theme of ['dark', 'light'] as const) {
      const moderatorPage = await pageAs(browser, moderator, theme);
      await moderatorPage.goto('/');
      await mainNav(moderatorPage).getByRole('link', { name: 'Moderation' }).click();
      await expect(moderatorPage).toHaveURL('/moderation');
      const target = moderatorPage.getByRole('article', { name: `Post by @${author.username}` });
      await expect(target).toContainText(content);
      await expect(target).toContainText('Stolen art');
      await expect(target).toContainText('This is my painting from 2019.');
      await expectNoAxeViolations(moderatorPage);
      if (theme === 'dark') {
        await moderatorPage.context().close();
        continue;
      }
      await target.getByRole('button', { name: 'Hide' }).click();
      const form = target.getByRole('region', { name: 'Hide this post' });
      await form.getByRole('button', { name: 'Hide' }).click();
      await expect(form.getByRole('alert')).toContainText('Write the reason');
      await form.getByLabel('Reason').fill('Reported as stolen art; the artist showed the original.');
      await form.getByRole('button', { name: 'Hide' }).click();
      await expect(toast(moderatorPage, '1 report was resolved')).toBeVisible();
      await expect(target).toHaveCount(0);
      await moderatorPage.context().close();
    }

    // The author sees the post hidden, with the reason.
    const authorPage = await pageAs(browser, author);
    await authorPage.goto(`/posts/${post._id}`);
    await expect(authorPage.getByRole('region', { name: 'Hidden by a moderator' })).toContainText(
      'Reason: Reported as stolen art; the artist showed the original.',
    );
    await authorPage.context().close();

    // The reporter is told the outcome; the post is gone for them.
    await page.goto('/notifications');
    await expect(page.getByText('We reviewed your report and hid the content you reported.')).toBeVisible();
    await page.goto(`/posts/${post._id}`);
    await expect(page.getByRole('heading', { name: 'Post not found' })).toBeVisible();
  });

  test('an admin dismisses a report and reads the action in the audit log, which a moderator cannot open', async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(60_000);
    const [reporter, author] = await Promise.all([createUser(request), createUser(request)]);
    const post = await createTextPost(request, author, uniqueText('A quiet still life'));
    const reported = await request.post('/api/reports', {
      headers: { authorization: `Bearer ${reporter.token}` },
      data: { targetType: 'post', targetId: post._id, reason: 'spam' },
    });
    expect(reported.status(), await reported.text()).toBe(201);
    // ADMIN_USERNAME (the e2e server's is e2e_admin): that account is admin from its sign-up. Another
    // spec run may have made it already; then it logs in.
    const credentials = { username: 'e2e_admin', password: 'an admin of the e2e run' };
    let admin = await request.post('/api/auth/login', { data: credentials });
    if (admin.status() === 404) {
      admin = await request.post('/api/auth/signup', {
        data: { ...credentials, fullname: 'E2E Admin', email: 'e2e_admin@example.com' },
      });
    }
    expect([200, 201], await admin.text()).toContain(admin.status());
    await useSession(page, { token: ((await admin.json()) as { encodedToken: string }).encodedToken });

    await page.goto('/moderation');
    const target = page.getByRole('article', { name: `Post by @${author.username}` });
    await target.getByRole('button', { name: 'Dismiss' }).click();
    const form = target.getByRole('region', { name: /^Dismiss the reports/ });
    const reason = `Not spam: a finished study ${Date.now().toString(36)}.`;
    await form.getByLabel('Reason').fill(reason);
    await form.getByRole('button', { name: 'Dismiss' }).click();
    await expect(toast(page, '1 report was resolved')).toBeVisible();

    await page.getByRole('tab', { name: 'Audit log' }).click();
    const entry = page.getByRole('list', { name: 'Audit log' }).getByRole('listitem').filter({ hasText: reason });
    await expect(entry).toContainText('Dismissed');
    await expect(entry).toContainText('by @e2e_admin');
    await expect(entry.getByRole('link', { name: post._id })).toHaveAttribute('href', `/posts/${post._id}`);
    await expectNoAxeViolations(page);

    // A moderator has the queue, not the audit log.
    const login = await request.post('/api/auth/login', { data: MODERATOR });
    const moderatorPage = await pageAs(browser, {
      token: ((await login.json()) as { encodedToken: string }).encodedToken,
    });
    await moderatorPage.goto('/moderation');
    await expect(moderatorPage.getByRole('heading', { name: 'Moderation' })).toBeVisible();
    await expect(moderatorPage.getByRole('tab', { name: 'Audit log' })).toHaveCount(0);
    await moderatorPage.context().close();
  });

  test('a moderator blocks a server, changes how, and lifts the block (issue 39)', async ({ page, request }) => {
    const login = await request.post('/api/auth/login', { data: MODERATOR });
    expect(login.status(), await login.text()).toBe(200);
    await useSession(page, { token: ((await login.json()) as { encodedToken: string }).encodedToken });
    const domain = `e2e-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}.example`;

    await page.goto('/moderation');
    await page.getByRole('tab', { name: 'Servers' }).click();
    const form = page.getByRole('region', { name: 'Block a server' });
    // A web address is not a server's name: the server's words say what to type.
    await form.getByLabel('Server').fill(`https://${domain}/about`);
    await form.getByRole('button', { name: 'Block' }).click();
    await expect(form).toContainText('domain must be a server name like mastodon.example');

    await form.getByLabel('Server').fill(domain.toUpperCase());
    await form.getByRole('radio', { name: /^Silence/ }).check();
    await form.getByLabel('Reason (optional)').fill('Scrapes art for AI datasets.');
    await form.getByRole('button', { name: 'Block' }).click();
    await expect(toast(page, `${domain} is blocked.`)).toBeVisible();
    const item = page.getByRole('list', { name: 'Blocked servers' }).getByRole('article', { name: domain });
    await expect(item).toContainText('Silence');
    await expect(item).toContainText('Scrapes art for AI datasets.');
    await expect(item).toContainText('By @moderator');
    await expectNoAxeViolations(page);

    await item.getByRole('button', { name: 'Change' }).click();
    const change = item.getByRole('form', { name: `Change ${domain}'s block` });
    await change.getByRole('radio', { name: /^Suspend/ }).check();
    await change.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(toast(page, `${domain}'s block is changed.`)).toBeVisible();
    await expect(item).toContainText('Suspend');

    await item.getByRole('button', { name: 'Lift the block' }).click();
    await page
      .getByRole('alertdialog', { name: `Lift the block of ${domain}?` })
      .getByRole('button', { name: 'Lift' })
      .click();
    await expect(toast(page, `${domain} is no longer blocked.`)).toBeVisible();
    await expect(item).toHaveCount(0);
  });
});
