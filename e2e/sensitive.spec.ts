// Content warnings (issue 23): a sensitive work is drawn covered (its warning and Show) until the viewer asks
// to see it; the viewer's setting "Show them" shows it at once. Axe on the covered post and on Settings.
import { expect, test } from '@playwright/test';
import { authOf, createUser, expectNoAxeViolations, toast, useSession } from './support/helpers.ts';

test('a sensitive post is covered with its warning until Show; the setting "show" shows it at once', async ({
  page,
  request,
}) => {
  const [artist, viewer] = await Promise.all([createUser(request), createUser(request)]);
  const created = await request.post('/api/posts', {
    headers: { ...authOf(artist), prefer: 'return=minimal' },
    data: { content: 'Figure study in charcoal', contentWarning: 'nudity', aiGenerated: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { _id: postId } = ((await created.json()) as { post: { _id: string } }).post;
  const picture = page.getByRole('img', { name: `Default picture of a post by @${artist.username}` });
  const show = page.getByRole('button', { name: 'Show the sensitive pictures' });

  await useSession(page, viewer);
  await page.goto(`/posts/${postId}`);
  await expect(page.getByText('Sensitive content: Nudity')).toBeVisible();
  // The label on the work, and in the licence line.
  await expect(page.getByText('AI-generated', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Licence' })).toContainText('Labelled by the artist as AI-generated');
  await expect(picture).toHaveCount(0);
  await expectNoAxeViolations(page);
  await show.click();
  await expect(picture).toBeVisible();
  await expect(show).toHaveCount(0);

  // Settings → Sensitive media → "Show them": the work is shown at once, without its cover.
  await page.goto('/settings/privacy');
  await page.getByRole('radio', { name: 'Show them' }).check();
  await expect(toast(page, 'Settings saved.')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Ask AI crawlers not to train on my work' })).toBeChecked();
  await expectNoAxeViolations(page);
  await page.goto(`/posts/${postId}`);
  await expect(picture).toBeVisible();
  await expect(page.getByText('Sensitive content: Nudity')).toHaveCount(0);
});
