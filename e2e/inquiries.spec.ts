// Inquiries (issue 42): a client sends an artist an inquiry from the artist's profile, with a reference picture; the
// artist finds it in their inbox, sees the picture (served only to the two of them), answers and accepts; the client
// sees the answer and the state. At a phone's width in the light theme and a wide screen's in the dark one.
import { expect, test } from '@playwright/test';
import { createUser, expectNoAxeViolations, useSession, useTheme } from './support/helpers.ts';

/** A 2 × 2 PNG, the reference picture. */
const PICTURE = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWM4kaJxIkWDAUIBACe+BVEPunA5AAAAAElFTkSuQmCC',
  'base64',
);

for (const [name, viewport, theme] of [
  ['a phone', { width: 375, height: 740 }, 'light'],
  ['a wide screen', { width: 1280, height: 900 }, 'dark'],
] as const) {
  test(`an inquiry is sent, answered and accepted, on ${name}`, async ({ page, request, browser }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    await useTheme(page, theme);
    const artist = await createUser(request);
    const client = await createUser(request);

    // The client opens the artist's profile and sends an inquiry with a budget and a reference picture.
    await useSession(page, client);
    await page.goto(`/${artist.username}`);
    await page.getByRole('button', { name: 'Send an inquiry' }).click();
    const dialog = page.getByRole('dialog', { name: `Send @${artist.username} an inquiry` });
    await dialog
      .getByRole('textbox', { name: 'What would you like?' })
      .fill('A portrait of my cat as a knight, in ink.');
    await dialog.getByRole('textbox', { name: 'Budget (optional)' }).fill('250');
    await dialog.getByLabel('Reference pictures (optional)').setInputFiles({
      name: 'cat.png',
      mimeType: 'image/png',
      buffer: PICTURE,
    });
    await dialog.getByRole('button', { name: 'Send inquiry' }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Your inquiry to @${artist.username}` })).toBeVisible();
    await expect(page.getByTestId('inquiry-state')).toHaveText('Waiting for an answer');

    // The artist finds it in the inbox, sees the picture, answers and accepts.
    const artistPage = await (await browser.newContext({ viewport })).newPage();
    await useTheme(artistPage, theme);
    await useSession(artistPage, artist);
    await artistPage.goto('/inquiries');
    const inbox = artistPage.getByRole('list', { name: 'Inquiries you received' });
    await inbox.getByRole('link', { name: `From @${client.username}` }).click();
    await expect(artistPage.getByRole('heading', { level: 1, name: `Inquiry from @${client.username}` })).toBeVisible();
    await expect(artistPage.getByText('A portrait of my cat as a knight, in ink.')).toBeVisible();
    await expect(artistPage.getByRole('img', { name: 'Reference picture 1' })).toBeVisible();
    await expectNoAxeViolations(artistPage);
    await artistPage.getByRole('textbox', { name: 'Your answer' }).fill('Happy to! Two weeks, sketch first.');
    await artistPage.getByRole('button', { name: 'Send answer' }).click();
    await expect(artistPage.getByText('Happy to! Two weeks, sketch first.')).toBeVisible();
    await artistPage.getByRole('button', { name: 'Accept', exact: true }).click();
    await expect(artistPage.getByTestId('inquiry-state')).toHaveText('Accepted');
    await artistPage.close();

    // The client sees the answer and the state.
    await page.reload();
    await expect(page.getByText('Happy to! Two weeks, sketch first.')).toBeVisible();
    await expect(page.getByTestId('inquiry-state')).toHaveText('Accepted');
    await expectNoAxeViolations(page);
  });
}
