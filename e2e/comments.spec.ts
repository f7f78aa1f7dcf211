import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import {
  authOf,
  createComment,
  createPost,
  createUser,
  expectNoAxeViolations,
  toast,
  useSession,
  useTheme,
  type CreatedUser,
} from './support/helpers.ts';
import { ANY, say, sayFromServer, sayNumber, sayPattern } from './support/say.ts';

function uniqueText(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/** A page of its own (own storage, own session) for `user`, on the post. */
async function openAs(browser: Browser, user: CreatedUser, postId: string, theme?: 'light' | 'dark') {
  const context = await browser.newContext();
  const page = await context.newPage();
  if (theme) await useTheme(page, theme);
  await useSession(page, user);
  await page.goto(`/posts/${postId}`);
  return { context, page };
}

function commentsOf(page: Page): Locator {
  return page.getByRole('region', { name: say('Comments'), exact: true });
}

function commentBy(page: Page, username: string): Locator {
  return commentsOf(page).getByRole('article', { name: say('Comment by {username}', { username }), exact: true });
}

function score(comment: Locator): Locator {
  return comment.getByText(sayPattern('<0>Score </0>{shown}', { shown: ANY }));
}

/** "Score 1", "Score −1": a comment's score as it reads (the minus sign is U+2212). */
function scoreText(shown: string): string {
  return say('<0>Score </0>{shown}', { shown });
}

/** "1 comment", "25 comments". */
function commentCount(count: number): string {
  return say('{count, plural, one {{shown} comment} other {{shown} comments}}', { count, shown: sayNumber(count) });
}

/** The form under the post: its box and its Post button. */
function commentForm(page: Page) {
  const form = page.getByRole('form', { name: say('Add a comment'), exact: true });
  return {
    input: form.getByRole('textbox', { name: say('Add a comment'), exact: true }),
    post: form.getByRole('button', { name: say('Post'), exact: true }),
  };
}

test.describe('comments', () => {
  test('comment, edit, vote, and delete as the post’s author; others get only what they may do', async ({
    page,
    browser,
    request,
  }) => {
    // Three sessions and some sixty steps: 35 s on an idle machine, over 45 s beside other load.
    test.setTimeout(90_000);
    const [author, commenter, stranger] = await Promise.all([
      createUser(request),
      createUser(request),
      createUser(request),
    ]);
    const post = await createPost(request, author, uniqueText('Conversation piece'));

    // ---- B comments through the page.
    await useSession(page, commenter);
    await page.goto(`/posts/${post._id}`);
    const comments = commentsOf(page);
    await expect(comments.getByRole('heading', { name: say('Comments'), exact: true })).toBeVisible();
    await expect(comments.getByText(say('No comments yet'), { exact: true })).toBeVisible();

    const { input, post: postComment } = commentForm(page);
    await expect(input).toHaveAttribute('maxlength', '1000');
    let commentRequests = 0;
    page.on('request', (req) => {
      if (req.method() === 'POST' && /\/api\/posts\/[^/]+\/comment$/.test(req.url())) commentRequests += 1;
    });
    await postComment.click();
    await expect(toast(page, say('What to comment ?'))).toBeVisible();
    await input.fill('   ');
    await postComment.click();
    expect(commentRequests, 'an empty comment is not sent').toBe(0);

    const text = uniqueText('Lovely brushwork');
    await input.fill(`${text}\nsecond line`);
    await postComment.click();
    const mine = commentBy(page, commenter.username);
    await expect(mine).toContainText(text);
    await expect(input).toHaveValue('');
    await expect(comments.getByText(commentCount(1), { exact: true })).toBeVisible();
    expect(await mine.locator('p', { hasText: text }).innerText()).toContain('\nsecond line');
    await expect(mine.getByRole('link', { name: `@${commenter.username}` })).toHaveAttribute(
      'href',
      `/${commenter.username}`,
    );

    // ---- B edits it: Escape closes and gives focus back; empty is refused; then saved.
    const options = mine.getByRole('button', { name: say('Comment options') });
    await options.click();
    await expect(page.getByRole('menuitem', { name: say('Delete Comment') })).toBeVisible();
    await page.getByRole('menuitem', { name: say('Edit Comment') }).click();
    const dialog = page.getByRole('dialog', { name: say('Edit Comment') });
    const box = dialog.getByPlaceholder(say('Edit comment......'));
    await expect(box).toHaveValue(`${text}\nsecond line`);
    await expect(box).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(options).toBeFocused();

    await options.click();
    await page.getByRole('menuitem', { name: say('Edit Comment') }).click();
    await box.fill('');
    await dialog.getByRole('button', { name: say('Edit Comment') }).click();
    await expect(toast(page, say('Nothing to edit'))).toBeVisible();
    await expect(dialog).toBeVisible();
    const edited = uniqueText('Lovely brushwork, and the colours');
    await box.fill(edited);
    await dialog.getByRole('button', { name: say('Edit Comment') }).click();
    await expect(dialog).toBeHidden();
    await expect(options).toBeFocused();
    await expect(mine).toContainText(edited);
    await expect(mine.getByText(say('edited'), { exact: true })).toBeVisible();

    // ---- C, neither the comment's author nor the post's, may only report it (issue 23).
    const third = await openAs(browser, stranger, post._id);
    const seenByStranger = commentBy(third.page, commenter.username);
    await expect(seenByStranger).toContainText(edited);
    await expect(seenByStranger.getByRole('button', { name: say('Upvote') })).toBeVisible();
    await seenByStranger.getByRole('button', { name: say('Comment options') }).click();
    await expect(third.page.getByRole('menuitem')).toHaveText([say('Report')]);
    await expect(third.page.getByRole('menuitem', { name: say('Edit Comment') })).toHaveCount(0);
    await expect(third.page.getByRole('menuitem', { name: say('Delete Comment') })).toHaveCount(0);
    await third.context.close();

    // ---- A, the post's author, votes on B's comment; the votes survive a reload.
    const first = await openAs(browser, author, post._id);
    const theirs = commentBy(first.page, commenter.username);
    const upvote = theirs.getByRole('button', { name: say('Upvote') });
    const downvote = theirs.getByRole('button', { name: say('Downvote') });
    await expect(score(theirs)).toHaveText(scoreText('0'));
    await expect(upvote).toHaveAttribute('aria-pressed', 'false');
    await upvote.click();
    await expect(upvote).toHaveAttribute('aria-pressed', 'true');
    await expect(score(theirs)).toHaveText(scoreText('1'));
    // The vote shows at once; the reload waits for the server to have it (a reload that leaves before the request
    // is sent loses it, as a closed tab would).
    const downvoted = first.page.waitForResponse(
      (response) => response.url().includes('/api/comments/downvote/') && response.ok(),
    );
    await downvote.click();
    await expect(downvote).toHaveAttribute('aria-pressed', 'true');
    await expect(upvote).toHaveAttribute('aria-pressed', 'false');
    await expect(score(theirs)).toHaveText(scoreText('−1'));
    await downvoted;
    await first.page.reload();
    await expect(downvote).toHaveAttribute('aria-pressed', 'true');
    await expect(upvote).toHaveAttribute('aria-pressed', 'false');
    await expect(score(theirs)).toHaveText(scoreText('−1'));
    // A vote cannot be withdrawn (the API has no call for it): pressing it again changes nothing.
    await downvote.click();
    await expect(score(theirs)).toHaveText(scoreText('−1'));
    await expect(toast(first.page, sayFromServer('Cannot downvote a post that is already downvoted.'))).toHaveCount(0);

    // ---- A may delete B's comment (not edit it); the count follows.
    await theirs.getByRole('button', { name: say('Comment options') }).click();
    await expect(first.page.getByRole('menuitem', { name: say('Edit Comment') })).toHaveCount(0);
    await first.page.getByRole('menuitem', { name: say('Delete Comment') }).click();
    const confirm = first.page.getByRole('alertdialog', { name: say('Delete comment?') });
    await expect(confirm.getByRole('button', { name: say('Cancel') })).toBeFocused();
    await confirm.getByRole('button', { name: say('Delete'), exact: true }).click();
    await expect(confirm).toBeHidden();
    await expect(theirs).toHaveCount(0);
    await expect(commentsOf(first.page).getByText(say('No comments yet'), { exact: true })).toBeVisible();
    await first.page.reload();
    await expect(commentsOf(first.page).getByText(say('No comments yet'), { exact: true })).toBeVisible();
    await expect(theirs).toHaveCount(0);
    await first.context.close();

    const fresh = await request.get(`/api/posts/${post._id}`, { headers: authOf(author) });
    expect(((await fresh.json()) as { post: { commentCount: number } }).post.commentCount).toBe(0);
  });

  test('rapid vote clicks send one request at a time and end as clicked last; a refused comment says so', async ({
    page,
    request,
  }) => {
    const [author, voter] = await Promise.all([createUser(request), createUser(request)]);
    const post = await createPost(request, author, uniqueText('Rapid votes'));
    await createComment(request, author, post._id, uniqueText('Vote on me'));
    await useSession(page, voter);

    let inFlight = 0;
    let maxInFlight = 0;
    let sent = 0;
    // The first answer is held until all four clicks are in (a fixed delay raced the clicks on a busy
    // machine): the clicks made meanwhile must wait for it and merge, not each send a request.
    const { promise: clicksDone, resolve: releaseRequests } = Promise.withResolvers<void>();
    await page.route(/\/api\/comments\/(up|down)vote\//, async (route) => {
      sent += 1;
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await clicksDone;
      const response = await route.fetch();
      inFlight -= 1;
      await route.fulfill({ response });
    });

    await page.goto(`/posts/${post._id}`);
    const comment = commentBy(page, author.username);
    const upvote = comment.getByRole('button', { name: say('Upvote') });
    const downvote = comment.getByRole('button', { name: say('Downvote') });
    for (const button of [upvote, downvote, upvote, downvote]) await button.click();
    releaseRequests();
    await expect(downvote).toHaveAttribute('aria-pressed', 'true');
    await expect(score(comment)).toHaveText(scoreText('−1'));
    await expect.poll(() => inFlight).toBe(0);
    expect(maxInFlight, 'never two vote requests for one comment at once').toBe(1);
    expect(sent, 'four clicks merged into fewer requests').toBeLessThan(4);
    await page.reload();
    await expect(downvote).toHaveAttribute('aria-pressed', 'true');
    await expect(upvote).toHaveAttribute('aria-pressed', 'false');
    await expect(score(comment)).toHaveText(scoreText('−1'));

    // The server refuses a comment: the spec's toast, the text is kept, the count is unchanged.
    await page.route(/\/api\/posts\/[^/]+\/comment$/, (route) =>
      route.fulfill({ status: 400, contentType: 'application/json', body: '{"errors":["Refused for the test."]}' }),
    );
    const { input, post: postComment } = commentForm(page);
    const draft = uniqueText('Not today');
    await input.fill(draft);
    await postComment.click();
    await expect(toast(page, say('Something went wrong'))).toBeVisible();
    await expect(input).toHaveValue(draft);
    await expect(commentsOf(page).getByText(commentCount(1), { exact: true })).toBeVisible();
    await expect(commentsOf(page).getByRole('article')).toHaveCount(1);
  });

  test('comments come in pages: Load more, infinite scroll, and Newest first', async ({ page, request }) => {
    const [author, reader] = await Promise.all([createUser(request), createUser(request)]);
    const post = await createPost(request, author, uniqueText('Popular piece'));
    for (let i = 1; i <= 25; i += 1) await createComment(request, author, post._id, `Comment number ${i}`);
    await useSession(page, reader);
    await page.goto(`/posts/${post._id}`);
    const comments = commentsOf(page);
    const items = comments.getByRole('article');
    await expect(comments.getByText(commentCount(25), { exact: true })).toBeVisible();
    await expect(items).toHaveCount(20);
    await expect(items.first()).toContainText('Comment number 1');
    // A synthetic click: scrolling the button into view would let infinite scroll load the page first
    // and take the button away mid-click.
    await comments.getByRole('button', { name: say('Load more comments') }).dispatchEvent('click');
    await expect(items).toHaveCount(25);
    await expect(items.last()).toContainText('Comment number 25');
    await expect(comments.getByRole('button', { name: say('Load more comments') })).toHaveCount(0);

    // Newest first: the newest on top; a new comment goes there at once; the rest load on scrolling.
    const sort = comments.getByRole('group', { name: say('Sort comments') });
    await sort.getByRole('button', { name: say('Newest') }).click();
    await expect(sort.getByRole('button', { name: say('Newest') })).toHaveAttribute('aria-pressed', 'true');
    await expect(items.first()).toContainText('Comment number 25');
    const text = uniqueText('Fresh take');
    await commentForm(page).input.fill(text);
    await commentForm(page).post.click();
    await expect(items.first()).toContainText(text);
    await expect(comments.getByText(commentCount(26), { exact: true })).toBeVisible();
    await items.last().scrollIntoViewIfNeeded();
    await expect(items).toHaveCount(26);
    await expect(items.last()).toContainText('Comment number 1');
  });
});

test.describe('accessibility of the comments (axe, WCAG 2 A and AA)', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`${theme} theme: a post with comments, the comment menu and the Edit Comment dialog`, async ({
      page,
      request,
    }) => {
      const [author, viewer] = await Promise.all([createUser(request), createUser(request)]);
      const post = await createPost(request, author, uniqueText('Much discussed'));
      await createComment(request, author, post._id, 'Thanks for looking!\nMore soon.');
      const own = await createComment(request, viewer, post._id, uniqueText('The light on the left is wonderful'));
      const vote = await request.post(`/api/comments/upvote/${post._id}/${own._id}`, { headers: authOf(author) });
      expect(vote.status(), await vote.text()).toBe(201);
      await useTheme(page, theme);
      await useSession(page, viewer);

      await page.goto(`/posts/${post._id}`);
      const mine = commentBy(page, viewer.username);
      await expect(mine).toBeVisible();
      await expect(commentsOf(page).getByRole('article')).toHaveCount(2);
      await expectNoAxeViolations(page);

      await mine.getByRole('button', { name: say('Comment options') }).click();
      await expect(page.getByRole('menuitem', { name: say('Edit Comment') })).toBeVisible();
      await expectNoAxeViolations(page);

      await page.getByRole('menuitem', { name: say('Edit Comment') }).click();
      const dialog = page.getByRole('dialog', { name: say('Edit Comment') });
      await expect(dialog).toBeVisible();
      await expectNoAxeViolations(page);
      // Focus stays in the dialog.
      for (let i = 0; i < 4; i += 1) {
        await page.keyboard.press('Tab');
        expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
      }
      await page.keyboard.press('Escape');
      await expect(mine.getByRole('button', { name: say('Comment options') })).toBeFocused();
    });
  }
});
