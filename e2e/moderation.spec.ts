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
import { say, sayFromServer, sayPattern } from './support/say.ts';

const MODERATOR = { username: 'moderator', password: 'share-arts-moderator' } as const;

function uniqueText(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/** A moderation card's title: "Post by @ana". */
function reportedPost(authorName: string): string {
  return say(
    '{targetType, select, post {Post by @{authorName}} comment {Comment by @{authorName}} user {Person by @{authorName}} other {Inquiry by @{authorName}}}',
    { targetType: 'post', authorName },
  );
}

/** What a moderator is told when an action resolved `resolved` reports. */
function resolvedText(resolved: number): string {
  return say(
    '{resolved, plural, one {Done. # report was resolved; the reporters are told.} other {Done. # reports were resolved; the reporters are told.}}',
    { resolved },
  );
}

/** A radio of the server blocks' form, named by how the server is blocked and what that does. */
function severity(english: 'Silence' | 'Suspend'): RegExp {
  return sayPattern(english, {}, { match: 'start' });
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
    await card.getByRole('button', { name: say('Post options') }).click();
    await page.getByRole('menuitem', { name: say('Report') }).click();
    const dialog = page.getByRole('dialog', { name: say('Report post') });
    await dialog.getByRole('button', { name: say('Send') }).click();
    await expect(dialog.getByRole('alert')).toHaveText(say('Choose a reason for the report.'));
    await dialog.getByRole('radio', { name: say('Stolen art') }).check();
    await dialog.getByLabel(say('Note (optional)')).fill('This is my painting from 2019.');
    await expect(dialog.getByText('30 / 1000')).toBeVisible();
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: say('Send') }).click();
    const thanks = page.getByRole('dialog', { name: say('Thank you') });
    await expect(thanks).toContainText(
      sayFromServer('Thank you for your report. A moderator will review it; you will be notified of the outcome.'),
    );
    await thanks.getByRole('button', { name: say('Done') }).click();

    // A second report of the same post while the first is open: the server's refusal, as it is.
    await card.getByRole('button', { name: say('Post options') }).click();
    await page.getByRole('menuitem', { name: say('Report') }).click();
    await dialog.getByRole('radio', { name: say('Spam') }).check();
    await dialog.getByRole('button', { name: say('Send') }).click();
    await expect(dialog.getByRole('alert')).toContainText(
      sayFromServer(
        'You have already reported this, and your report is still open: a moderator will review it. You will be notified of the outcome.',
      ),
    );
    await dialog.getByRole('button', { name: say('Cancel') }).click();
    // Not a moderator: /moderation is not a page, and the menu has no link to it.
    await page.goto('/moderation');
    await expect(page.getByRole('heading', { name: say('Page not found') })).toBeVisible();
    await expect(mainNav(page).getByRole('link', { name: say('Moderation') })).toHaveCount(0);

    // The moderator finds it in the queue (axe in both themes), and hides it with a reason.
    const login = await request.post('/api/auth/login', { data: MODERATOR });
    expect(login.status(), await login.text()).toBe(200);
    const moderator = { token: ((await login.json()) as { encodedToken: string }).encodedToken };
    for (const theme of ['dark', 'light'] as const) {
      const moderatorPage = await pageAs(browser, moderator, theme);
      await moderatorPage.goto('/');
      await mainNav(moderatorPage)
        .getByRole('link', { name: say('Moderation') })
        .click();
      await expect(moderatorPage).toHaveURL('/moderation');
      const target = moderatorPage.getByRole('article', { name: reportedPost(author.username) });
      await expect(target).toContainText(content);
      await expect(target).toContainText(say('Stolen art'));
      await expect(target).toContainText('This is my painting from 2019.');
      await expectNoAxeViolations(moderatorPage);
      if (theme === 'dark') {
        await moderatorPage.context().close();
        continue;
      }
      await target.getByRole('button', { name: say('Hide'), exact: true }).click();
      const form = target.getByRole('region', {
        name: say(
          '{targetType, select, user {Hide @{name}} post {Hide this post} comment {Hide this comment} other {Hide this inquiry}}',
          { targetType: 'post', name: author.username },
        ),
      });
      await form.getByRole('button', { name: say('Hide'), exact: true }).click();
      await expect(form.getByRole('alert')).toContainText(
        say('Write the reason: the author sees it when their content is hidden, and it goes in the audit log.'),
      );
      await form
        .getByLabel(say('Reason'), { exact: true })
        .fill('Reported as stolen art; the artist showed the original.');
      await form.getByRole('button', { name: say('Hide'), exact: true }).click();
      await expect(toast(moderatorPage, resolvedText(1))).toBeVisible();
      await expect(target).toHaveCount(0);
      await moderatorPage.context().close();
    }

    // The author sees the post hidden, with the reason.
    const authorPage = await pageAs(browser, author);
    await authorPage.goto(`/posts/${post._id}`);
    await expect(authorPage.getByRole('region', { name: say('Hidden by a moderator') })).toContainText(
      say('Reason: {reason}', { reason: 'Reported as stolen art; the artist showed the original.' }),
    );
    await authorPage.context().close();

    // The reporter is told the outcome; the post is gone for them.
    await page.goto('/notifications');
    await expect(page.getByText(say('We reviewed your report and hid the content you reported.'))).toBeVisible();
    await page.goto(`/posts/${post._id}`);
    await expect(page.getByRole('heading', { name: say('Post not found') })).toBeVisible();
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
    const target = page.getByRole('article', { name: reportedPost(author.username) });
    await target.getByRole('button', { name: say('Dismiss'), exact: true }).click();
    const form = target.getByRole('region', {
      name: say(
        '{targetType, select, user {Dismiss the reports of @{name}} post {Dismiss the reports of this post} comment {Dismiss the reports of this comment} other {Dismiss the reports of this inquiry}}',
        { targetType: 'post', name: author.username },
      ),
    });
    const reason = `Not spam: a finished study ${Date.now().toString(36)}.`;
    await form.getByLabel(say('Reason'), { exact: true }).fill(reason);
    await form.getByRole('button', { name: say('Dismiss'), exact: true }).click();
    await expect(toast(page, resolvedText(1))).toBeVisible();

    await page.getByRole('tab', { name: say('Audit log') }).click();
    const entry = page
      .getByRole('list', { name: say('Audit log') })
      .getByRole('listitem')
      .filter({ hasText: reason });
    await expect(entry).toContainText(say('Dismissed'));
    await expect(entry).toContainText(say('by @{actor}', { actor: 'e2e_admin' }));
    await expect(entry.getByRole('link', { name: post._id })).toHaveAttribute('href', `/posts/${post._id}`);
    await expectNoAxeViolations(page);

    // A moderator has the queue, not the audit log.
    const login = await request.post('/api/auth/login', { data: MODERATOR });
    const moderatorPage = await pageAs(browser, {
      token: ((await login.json()) as { encodedToken: string }).encodedToken,
    });
    await moderatorPage.goto('/moderation');
    await expect(moderatorPage.getByRole('heading', { name: say('Moderation') })).toBeVisible();
    await expect(moderatorPage.getByRole('tab', { name: say('Audit log') })).toHaveCount(0);
    await moderatorPage.context().close();
  });

  test('a moderator blocks a server, changes how, and lifts the block (issue 39)', async ({ page, request }) => {
    const login = await request.post('/api/auth/login', { data: MODERATOR });
    expect(login.status(), await login.text()).toBe(200);
    await useSession(page, { token: ((await login.json()) as { encodedToken: string }).encodedToken });
    const domain = `e2e-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}.example`;

    await page.goto('/moderation');
    await page.getByRole('tab', { name: say('Servers') }).click();
    const form = page.getByRole('region', { name: say('Block a server') });
    // A web address is not a server's name: the server's words say what to type.
    await form.getByLabel(say('Server'), { exact: true }).fill(`https://${domain}/about`);
    await form.getByRole('button', { name: say('Block'), exact: true }).click();
    await expect(form).toContainText(
      sayFromServer(
        'domain must be a server name like mastodon.example (no https://, no path, no @user): its subdomains are covered too.',
      ),
    );

    await form.getByLabel(say('Server'), { exact: true }).fill(domain.toUpperCase());
    await form.getByRole('radio', { name: severity('Silence') }).check();
    await form.getByLabel(say('Reason (optional)')).fill('Scrapes art for AI datasets.');
    await form.getByRole('button', { name: say('Block'), exact: true }).click();
    await expect(toast(page, say('{blocked} is blocked.', { blocked: domain }))).toBeVisible();
    const item = page.getByRole('list', { name: say('Blocked servers') }).getByRole('article', { name: domain });
    await expect(item).toContainText(say('Silence'));
    await expect(item).toContainText('Scrapes art for AI datasets.');
    await expect(item).toContainText(say('By @{createdBy}', { createdBy: 'moderator' }));
    await expectNoAxeViolations(page);

    await item.getByRole('button', { name: say('Change'), exact: true }).click();
    const change = item.getByRole('form', { name: say("Change {domain}'s block", { domain }) });
    await change.getByRole('radio', { name: severity('Suspend') }).check();
    await change.getByRole('button', { name: say('Save'), exact: true }).click();
    await expect(toast(page, say("{changed}'s block is changed.", { changed: domain }))).toBeVisible();
    await expect(item).toContainText(say('Suspend'));

    await item.getByRole('button', { name: say('Lift the block') }).click();
    await page
      .getByRole('alertdialog', { name: say('Lift the block of {domain}?', { domain }) })
      .getByRole('button', { name: say('Lift'), exact: true })
      .click();
    await expect(toast(page, say('{domain} is no longer blocked.', { domain }))).toBeVisible();
    await expect(item).toHaveCount(0);
  });
});
