import { expect, test, type Page, type Request } from '@playwright/test';
import { createUser, expectNoAxeViolations, toast, useSession, useTheme } from './support/helpers.ts';

const JSON_ERROR = 'Error in JSON format';

/** Opens /mockman and waits until the route suggestions (the page's own API call) have arrived. */
async function openMockman(page: Page): Promise<void> {
  const suggestions = page.waitForResponse((response) => response.url().endsWith('/api/openapi.json'));
  await page.goto('/mockman');
  await suggestions;
  await expect(page).toHaveTitle('Mockman | Share Arts');
}

function responsePanel(page: Page) {
  return page.getByRole('region', { name: 'Response' });
}

function send(page: Page) {
  return page.getByRole('button', { name: 'Send', exact: true }).click();
}

/** The API requests the page makes from now on. */
function recordApiRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) seen.push(request);
  });
  return seen;
}

test('has no header or side menu, and sends the default GET /api/test-todos (a real answer)', async ({ page }) => {
  await openMockman(page);
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  // Reachable signed out: developers try unauthenticated calls too.
  await expect(page).toHaveURL(/\/mockman$/);
  await expect(page.getByText('You are not signed in')).toBeVisible();
  await expect(page.locator('datalist option[value="POST /api/users/edit"]')).toHaveCount(1);
  await expect(page.getByLabel('Method')).toHaveValue('GET');
  await expect(page.getByLabel('Endpoint')).toHaveValue('/api/test-todos');
  await expect(page.getByLabel('Body')).toHaveValue('{}');
  await expect(page.getByRole('link', { name: /API reference/ })).toHaveAttribute('href', '/api/docs');

  const sent = page.waitForRequest((request) => request.url().endsWith('/api/test-todos'));
  await send(page);
  const request = await sent;
  expect(request.method()).toBe('GET');
  expect(request.postData()).toBeNull();

  const panel = responsePanel(page);
  await expect(panel.getByText('200', { exact: true })).toBeVisible();
  await expect(panel.getByText('OK', { exact: true })).toBeVisible();
  await expect(panel.getByText(/\d+ ms/)).toBeVisible();
  await expect(panel.getByRole('group', { name: /Data/ })).toContainText('"completed"');
  await expect(panel.getByRole('group', { name: /Data/ })).toContainText('GET /api/health');
  await expect(panel.getByText('content-type', { exact: true })).toBeVisible();
});

test('an invalid body or a foreign address is refused and nothing is sent', async ({ page }) => {
  await openMockman(page);
  const apiRequests = recordApiRequests(page);

  await page.getByLabel('Method').selectOption('POST');
  await page.getByLabel('Body').fill('{ "bio": ');
  await send(page);
  await expect(toast(page, JSON_ERROR)).toBeVisible();
  await expect(page.getByLabel('Body')).toHaveAccessibleDescription(new RegExp(JSON_ERROR));
  await expect(page.getByLabel('Body')).toBeFocused();

  await page.getByLabel('Body').fill('{}');
  for (const address of ['https://example.com/api/health', '//example.com/api/health']) {
    await page.getByLabel('Endpoint').fill(address);
    await send(page);
    await expect(page.getByLabel('Endpoint')).toHaveAccessibleDescription(/only calls Share Arts itself/);
  }

  // A picked suggestion sets method and path; its :id placeholder must be replaced before sending.
  await page.getByLabel('Endpoint').fill('DELETE /api/posts/:id');
  await expect(page.getByLabel('Method')).toHaveValue('DELETE');
  await expect(page.getByLabel('Endpoint')).toHaveValue('/api/posts/:id');
  await send(page);
  await expect(page.getByLabel('Endpoint')).toHaveAccessibleDescription(/Replace :id/);

  // Give a stray request time to show up before concluding there was none.
  await page.waitForTimeout(300);
  expect(apiRequests.map((request) => request.url())).toEqual([]);
  await expect(responsePanel(page).getByText('404', { exact: true })).toHaveCount(0);
});

test('signed in, the authorization row is checked: a protected route works, and answers 401 unchecked', async ({
  page,
  request,
}) => {
  const user = await createUser(request);
  await useSession(page, user);
  await openMockman(page);

  await page.getByLabel('Method').selectOption('POST');
  await page.getByLabel('Endpoint').fill('/api/users/edit');
  await page.getByLabel('Body').fill('{"userData":{"bio":"from mockman"}}');
  const authorization = page.getByRole('group', { name: 'authorization header' });
  await expect(authorization.getByLabel('Header value')).toHaveValue(user.token);
  // Signed in, the token row is checked from the start.
  await expect(authorization.getByLabel('Send header')).toBeChecked();

  await send(page);
  const panel = responsePanel(page);
  await expect(panel.getByText('201', { exact: true })).toBeVisible();
  await expect(panel.getByRole('group', { name: /Data/ })).toContainText('from mockman');

  await authorization.getByLabel('Send header').uncheck();
  await send(page);
  await expect(panel.getByText('401', { exact: true })).toBeVisible();
  await expect(panel.getByText(/Sign in first/).first()).toBeVisible();

  // History keeps that the header was there and checked, never its value.
  const stored = await page.evaluate(() => window.localStorage.getItem('mockman-history') ?? '');
  expect(stored).toContain('authorization');
  expect(stored).not.toContain(user.token);

  // Replaying the checked call refills the token from the current session.
  const replayed = page.waitForRequest((sent) => sent.url().endsWith('/api/users/edit'));
  await page.getByRole('button', { name: 'Replay POST /api/users/edit (with authorization)' }).click();
  expect((await replayed).headers().authorization).toBe(user.token);
  await expect(panel.getByText('201', { exact: true })).toBeVisible();
  await expect(authorization.getByLabel('Send header')).toBeChecked();
});

test('headers can be added and removed by keyboard, and only checked ones are sent', async ({ page }) => {
  await openMockman(page);
  await page.getByRole('button', { name: 'Add header' }).click();
  await expect(page.getByRole('group', { name: 'Header 2' }).getByLabel('Header name')).toBeFocused();
  await page.keyboard.type('x-mockman');
  await page.keyboard.press('Tab');
  await page.keyboard.type('yes');
  await page.getByLabel('Endpoint').fill('/api/health');

  const sent = page.waitForRequest((request) => request.url().endsWith('/api/health'));
  await page.getByLabel('Endpoint').press('Enter');
  const headers = (await sent).headers();
  expect(headers['x-mockman']).toBe('yes');
  expect(headers.authorization).toBeUndefined();
  await expect(responsePanel(page).getByText('200', { exact: true })).toBeVisible();

  await page.getByRole('group', { name: 'x-mockman header' }).getByRole('button', { name: 'Remove header' }).click();
  await expect(page.getByRole('group', { name: 'x-mockman header' })).toHaveCount(0);
});

test('a request can be replayed from the history', async ({ page }) => {
  await openMockman(page);
  await page.getByLabel('Endpoint').fill('/api/health');
  await send(page);
  await expect(responsePanel(page).getByText('200', { exact: true })).toBeVisible();

  await page.reload();
  await expect(page.getByLabel('Endpoint')).toHaveValue('/api/test-todos');
  const sent = page.waitForRequest((request) => request.url().endsWith('/api/health'));
  await page.getByRole('button', { name: 'Replay GET /api/health' }).click();
  expect((await sent).method()).toBe('GET');
  await expect(page.getByLabel('Endpoint')).toHaveValue('/api/health');
  await expect(responsePanel(page).getByText('200', { exact: true })).toBeVisible();
});

test('a running request can be cancelled: no response', async ({ page }) => {
  await openMockman(page);
  // Hold the call so it is still running when Cancel is pressed; it never reaches the server.
  await page.route('**/api/slow-for-mockman', () => undefined);
  await page.getByLabel('Endpoint').fill('/api/slow-for-mockman');
  await send(page);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(responsePanel(page).getByText('Response is undefined.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeDisabled();
});

for (const [theme, width] of [
  ['light', 1280],
  ['dark', 375],
] as const) {
  test(`no axe violations in the ${theme} theme at ${width} px, with an answer shown`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await useTheme(page, theme);
    await openMockman(page);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await expectNoAxeViolations(page);
    await send(page);
    await expect(responsePanel(page).getByText('200', { exact: true })).toBeVisible();
    await expectNoAxeViolations(page);
  });
}
