// Stored XSS battery (issue 8, "Reliability and security"). Hostile text goes in through every field a person
// can fill (names, bio, link, posts, comments, and the search box), and Chromium renders every page that
// shows it: Home, Search (page and header dropdown), each post page, each profile, and the author's own editors.
// Each payload would set `window.__xss` or open a dialog if it ran. The pages are drawn with the CSP switched
// off (`bypassCSP`), so the rendering alone is under test; the production CSP (script-src 'self') is a second
// layer that would block inline handlers anyway.
import { expect, test, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';
import { writeReliabilitySection } from '../scripts/reliability-report.mjs';
import { authOf, createUser, type CreatedUser } from './support/helpers.ts';

declare global {
  interface Window {
    __xss?: unknown;
    __xssHits: string[];
    __xssScan: () => string[];
  }
}

test.describe.configure({ mode: 'default' });
test.use({ bypassCSP: true });

// ---- payloads -------------------------------------------------------------------------------------

type Kind = 'script' | 'handler' | 'url' | 'breakout' | 'markup' | 'template' | 'unicode';

/** `§` is replaced by the payload's number: `__xss=§` sets window.__xss, `alert(§)` opens a dialog. */
const RAW: [Kind, string][] = [
  ['script', '<script>__xss=§</script>'],
  ['script', '<SCRIPT>alert(§)</SCRIPT>'],
  ['script', '<script src="data:text/javascript,__xss=§"></script>'],
  ['script', '<scr<script>ipt>__xss=§</scr</script>ipt>'],
  ['script', '<svg><script>__xss=§</script></svg>'],
  ['script', '<math><mtext><table><mglyph><style><img src=x onerror=__xss=§>'],
  ['handler', '<img src=x onerror="__xss=§">'],
  ['handler', '<IMG SRC=x OnErRoR=__xss=§>'],
  ['handler', '<img src=x onerror="&#95;_xss=§">'],
  ['handler', '<img src=x onerror=\\u0061lert(§)>'],
  ['handler', '<svg onload="__xss=§">'],
  ['handler', '<body onload=__xss=§>'],
  ['handler', '<details open ontoggle=__xss=§>'],
  ['handler', '<input autofocus onfocus=__xss=§>'],
  ['url', 'javascript:__xss=§'],
  ['url', 'JaVaScRiPt:alert(§)'],
  ['url', ' javascript:__xss=§'],
  ['url', 'java\tscript:__xss=§'],
  ['url', 'java\nscript:alert(§)'],
  ['url', '&#106;avascript:__xss=§'],
  ['url', 'javascript&colon;__xss=§'],
  ['url', '\u0001javascript:__xss=§'],
  ['url', 'javascript://example.com/%0A__xss=§'],
  ['url', 'data:text/html,<script>parent.__xss=§</script>'],
  ['url', 'DATA:text/html;base64,<b64>'],
  ['url', 'vbscript:msgbox(§)'],
  ['url', 'https://example.com/"onmouseover="__xss=§'],
  ['url', 'http://example.com/#"><img src=x onerror=__xss=§>'],
  ['breakout', '" onmouseover="__xss=§'],
  ['breakout', "' autofocus onfocus='__xss=§"],
  ['breakout', '"><img src=x onerror=__xss=§>'],
  ['breakout', '</textarea><img src=x onerror=__xss=§>'],
  ['breakout', '</title><script>__xss=§</script>'],
  ['breakout', '<!--<img src="--><img src=x onerror=__xss=§//">'],
  ['breakout', '<noscript><p title="</noscript><img src=x onerror=__xss=§>">'],
  ['markup', '<iframe srcdoc="<script>parent.__xss=§</script>">'],
  ['markup', '<iframe src="javascript:parent.__xss=§">'],
  ['markup', '<object data="javascript:__xss=§">'],
  ['markup', '<embed src="data:text/html,<script>parent.__xss=§</script>">'],
  ['markup', '<a href="javascript:__xss=§">click</a>'],
  ['markup', '<form action="javascript:__xss=§"><button>go</button></form>'],
  ['markup', '<button formaction="javascript:__xss=§">go</button>'],
  ['markup', '<svg><a xlink:href="javascript:__xss=§"><text>x</text></a></svg>'],
  ['markup', '<meta http-equiv="refresh" content="0;url=javascript:__xss=§">'],
  ['markup', '<base href="javascript:__xss=§//">'],
  ['markup', '<div style="width:expression(__xss=§)">'],
  ['template', '{{constructor.constructor("__xss=§")()}}'],
  ['template', '$' + '{__xss=§}'],
  ['template', '[click](javascript:__xss=§)'],
  ['template', '![x](x" onerror="__xss=§)'],
  ['unicode', '<scr\u200bipt>__xss=§</scr\u200bipt>'],
  ['unicode', '\uff1cscript\uff1e__xss=§\uff1c/script\uff1e'],
  ['unicode', '\u202e<img src=x onerror=__xss=§>'],
  ['unicode', '<img src=x onerror=\u2028__xss=§>'],
  ['unicode', '\u0000<script>__xss=§</script>'],
];

interface Payload {
  n: number;
  kind: Kind;
  text: string;
}

const PAYLOADS: Payload[] = RAW.map(([kind, template], index) => {
  const n = index + 1;
  const text = template
    .replace('<b64>', Buffer.from(`<script>parent.__xss=${n}</script>`).toString('base64'))
    .replaceAll('§', String(n));
  return { n, kind, text };
});

/** What a field holds after the API answered: the stored (normalised) text, or the refusal. */
type Outcome = { stored: string } | { refused: string };
const FIELDS = ['firstName', 'lastName', 'bio', 'link', 'post', 'comment'] as const;
type Field = (typeof FIELDS)[number];

interface Planted {
  payload: Payload;
  user: CreatedUser;
  /** The name shown for the user: "first last" of what was stored. */
  shownName: string;
  postId?: string;
  commentId?: string;
  outcomes: Record<Field, Outcome>;
}

/** Payloads shown again in their author's own inputs and textareas, where quotes and `</textarea>` matter. */
const EDITOR_PAYLOADS = ['" onmouseover=', "' autofocus onfocus=", '</textarea>', 'https://example.com/"'];
/** Every REFLECT-th payload is also sent as the search term itself. */
const REFLECT = 4;

const run = `x${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
const planted: Planted[] = [];
let viewer: CreatedUser;
const findings = {
  dialogs: [] as string[],
  hits: [] as string[],
  dom: [] as string[],
  text: [] as string[],
  pageErrors: [] as string[],
  pages: new Map<string, number>(),
  reflected: 0,
  checked: 0,
  setupSeconds: 0,
};

const stored = (outcome: Outcome) => ('stored' in outcome ? outcome.stored : undefined);

// ---- the trap: what a page records if a payload runs or reaches the DOM ---------------------------

/**
 * Runs in the page before any of its scripts. `appScripts`: the texts of the build's own inline scripts (its head
 * script, which the server's CSP allows by its hash), the only inline scripts a page may have.
 */
function installTrap(appScripts: string[]) {
  const hits: string[] = [];
  window.__xssHits = hits;
  let value: unknown;
  Object.defineProperty(window, '__xss', {
    configurable: true,
    get: () => value,
    set: (next) => {
      value = next;
      hits.push(`window.__xss was set to ${String(next)}`);
    },
  });
  const DANGEROUS = ['SCRIPT', 'IFRAME', 'FRAME', 'FRAMESET', 'OBJECT', 'EMBED', 'APPLET', 'BASE', 'NOSCRIPT'];
  const URL_ATTRIBUTES = new Set([
    'href',
    'xlink:href',
    'src',
    'srcset',
    'action',
    'formaction',
    'data',
    'poster',
    'background',
    'ping',
    'codebase',
    'cite',
  ]);
  const invisible = (c: number) =>
    c <= 0x20 ||
    (c >= 0x7f && c <= 0x9f) ||
    c === 0xad ||
    (c >= 0x200b && c <= 0x200f) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0xfeff;
  const describe = (el: Element) => `<${el.tagName.toLowerCase()}> ${el.outerHTML.slice(0, 160)}`;
  const inBody = (el: Element) => document.body !== null && document.body.contains(el);
  const problemsOf = (el: Element): string[] => {
    const problems: string[] = [];
    const tag = el.tagName.toUpperCase();
    if (tag === 'SCRIPT') {
      const src = el.getAttribute('src');
      const sameOrigin = src !== null && new URL(src, location.href).origin === location.origin;
      const appScript = src === null && !inBody(el) && appScripts.includes(el.textContent ?? '');
      if (!appScript && (!sameOrigin || (el.textContent ?? '').trim() !== '' || inBody(el))) {
        problems.push(`script ${describe(el)}`);
      }
    } else if (DANGEROUS.includes(tag) && inBody(el)) {
      problems.push(`element ${describe(el)}`);
    } else if ((tag === 'STYLE' || tag === 'META' || tag === 'LINK') && document.getElementById('root')?.contains(el)) {
      problems.push(`element in the app root ${describe(el)}`);
    }
    for (const attribute of Array.from(el.attributes)) {
      const name = attribute.name.toLowerCase();
      // What a browser ignores inside a URL scheme: control characters, spaces and invisible ones.
      const compact = Array.from(attribute.value)
        .filter((ch) => !invisible(ch.codePointAt(0)!))
        .join('');
      const lower = compact.toLowerCase();
      if (name.startsWith('on')) problems.push(`event handler attribute ${name} on ${describe(el)}`);
      else if (name === 'srcdoc') problems.push(`srcdoc on ${describe(el)}`);
      else if (name === 'style' && /expression\(|javascript:|behavior:|-moz-binding/.test(lower))
        problems.push(`scripted style on ${describe(el)}`);
      else if (URL_ATTRIBUTES.has(name)) {
        const picture = (tag === 'IMG' || tag === 'SOURCE') && (name === 'src' || name === 'srcset');
        if (/^(javascript|vbscript|livescript):/.test(lower)) problems.push(`${name}=${compact} on ${describe(el)}`);
        else if (lower.startsWith('data:') && !(picture && lower.startsWith('data:image/')))
          problems.push(`${name}=${compact.slice(0, 60)} on ${describe(el)}`);
      }
    }
    return problems;
  };
  const check = (node: Node) => {
    if (!(node instanceof Element)) return;
    for (const el of [node, ...Array.from(node.querySelectorAll('*'))]) hits.push(...problemsOf(el));
  };
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'attributes' && record.target instanceof Element) hits.push(...problemsOf(record.target));
      for (const node of Array.from(record.addedNodes)) check(node);
    }
  }).observe(document, { subtree: true, childList: true, attributes: true });
  window.__xssScan = () => Array.from(document.querySelectorAll('*')).flatMap(problemsOf);
}

/** A page signed in as `user`, with the trap installed and dialogs recorded (and dismissed). */
async function trappedPage(browser: Browser, baseURL: string, user: CreatedUser): Promise<Page> {
  const context = await browser.newContext({ baseURL, bypassCSP: true });
  // The app's page as the build wrote it (/landing has no one's content in it).
  const built = await (await fetch(`${baseURL}/landing`, { headers: { accept: 'text/html' } })).text();
  const appScripts = [...built.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
  await context.addInitScript(installTrap, appScripts);
  await context.addInitScript((token) => window.localStorage.setItem('token', token), user.token);
  const page = await context.newPage();
  page.on('dialog', (dialog) => {
    findings.dialogs.push(`${page.url()}: ${dialog.type()} "${dialog.message()}"`);
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => findings.pageErrors.push(`${page.url()}: ${error.message.slice(0, 200)}`));
  return page;
}

/** After a page is drawn: the globals, what the trap saw, and a scan of the whole DOM. */
async function inspect(page: Page, label: string): Promise<void> {
  findings.pages.set(label, (findings.pages.get(label) ?? 0) + 1);
  const state = await page.evaluate(() => ({
    xss: window.__xss === undefined ? null : String(window.__xss),
    hits: window.__xssHits.splice(0),
    scan: window.__xssScan(),
  }));
  if (state.xss !== null) findings.hits.push(`${label} ${page.url()}: window.__xss = ${state.xss}`);
  findings.hits.push(...state.hits.map((hit) => `${label} ${page.url()}: ${hit}`));
  findings.dom.push(...state.scan.map((problem) => `${label} ${page.url()}: ${problem}`));
}

/**
 * In-app navigation, as the browser's back and forward buttons do it (React Router reads the location on
 * popstate): the page is not reloaded, so anything a payload ran stays in the same window as the checks.
 */
async function navigate(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
}

/** Calls `advance` until `ended()`; each round waits for the list to grow (or end). */
async function loadAll(items: Locator, advance: () => Promise<void>, ended: () => Promise<boolean>): Promise<void> {
  for (let round = 0; round < 40 && !(await ended()); round += 1) {
    const before = await items.count();
    await advance();
    await expect.poll(async () => (await ended()) || (await items.count()) > before).toBe(true);
  }
  expect(await ended(), 'the whole list loaded').toBe(true);
}

/** What a one-line input shows of a value: browsers drop its line breaks. */
const oneLine = (value: string) => value.replace(/[\r\n]/g, '');

function expectText(where: string, actual: string[] | string | null | undefined, wanted: string) {
  findings.checked += 1;
  const found = Array.isArray(actual) ? actual.includes(wanted) : actual === wanted;
  if (!found)
    findings.text.push(`${where}: ${JSON.stringify(wanted)} not shown as text (saw ${JSON.stringify(actual)})`);
}

function expectNoFindings() {
  expect(findings.dialogs, 'dialogs opened by payloads').toEqual([]);
  expect(findings.hits, 'payloads that ran or reached the DOM').toEqual([]);
  expect(findings.dom, 'dangerous elements or attributes in the DOM').toEqual([]);
  expect(findings.text, 'fields not shown as their stored text').toEqual([]);
}

/** The text of every <p> of every article, keyed by the article's accessible name. */
async function articleParagraphs(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(() => {
    const out: Record<string, string[]> = {};
    for (const article of Array.from(document.querySelectorAll('article'))) {
      const labelledBy = article.getAttribute('aria-labelledby');
      const name =
        article.getAttribute('aria-label') ??
        (labelledBy ? (document.getElementById(labelledBy)?.textContent ?? '') : '');
      out[name] = [...(out[name] ?? []), ...Array.from(article.querySelectorAll('p')).map((p) => p.textContent ?? '')];
    }
    return out;
  });
}

// ---- storing the payloads through the API ---------------------------------------------------------

async function outcomeOf(response: Awaited<ReturnType<APIRequestContext['post']>>, read: (body: never) => string) {
  const text = await response.text();
  if (response.status() >= 500) return { refused: `HTTP ${response.status()} (server error): ${text.slice(0, 120)}` };
  if (response.status() >= 400) {
    const errors = (JSON.parse(text) as { errors?: string[] }).errors;
    return { refused: `${response.status()} ${errors?.[0] ?? text.slice(0, 120)}` };
  }
  return { stored: read(JSON.parse(text) as never) };
}

async function plant(request: APIRequestContext, payload: Payload): Promise<Planted> {
  const user = await createUser(request, {
    username: `${run}_${payload.n}`,
    email: `${run}_${payload.n}@example.test`,
    fullname: 'Neutral Name',
  });
  const headers = authOf(user);
  const editUser = async (field: 'firstName' | 'lastName' | 'bio' | 'link') => {
    const response = await request.post('/api/users/edit', { headers, data: { userData: { [field]: payload.text } } });
    return outcomeOf(response, (body: { user: Record<string, string> }) => body.user[field]!);
  };
  const outcomes = {} as Record<Field, Outcome>;
  // One field per request, so one refusal does not hide what the others do.
  for (const field of ['firstName', 'lastName', 'bio', 'link'] as const) outcomes[field] = await editUser(field);

  // Even payloads are written as a new post or comment, odd ones by editing a harmless one.
  const minimal = { ...headers, prefer: 'return=minimal' };
  let postId: string | undefined;
  const create = await request.post('/api/posts', {
    headers: minimal,
    data: { content: payload.n % 2 === 0 ? payload.text : 'placeholder' },
  });
  if (payload.n % 2 === 0) {
    outcomes.post = await outcomeOf(create, (body: { post: { content: string } }) => body.post.content);
    if (create.ok()) postId = ((await create.json()) as { post: { _id: string } }).post._id;
  } else {
    expect(create.status(), await create.text()).toBe(201);
    postId = ((await create.json()) as { post: { _id: string } }).post._id;
    const edit = await request.post(`/api/posts/edit/${postId}`, {
      headers: minimal,
      data: { postData: { content: payload.text } },
    });
    outcomes.post = await outcomeOf(edit, (body: { post: { content: string } }) => body.post.content);
  }

  let commentId: string | undefined;
  if (postId) {
    const add = await request.post(`/api/posts/${postId}/comment`, {
      headers: minimal,
      data: { commentData: { content: payload.n % 2 === 0 ? payload.text : 'placeholder' } },
    });
    if (payload.n % 2 === 0) {
      outcomes.comment = await outcomeOf(add, (body: { comment: { content: string } }) => body.comment.content);
      if (add.ok()) commentId = ((await add.json()) as { comment: { _id: string } }).comment._id;
    } else {
      expect(add.status(), await add.text()).toBe(201);
      commentId = ((await add.json()) as { comment: { _id: string } }).comment._id;
      const edit = await request.post(`/api/comments/edit/${postId}/${commentId}`, {
        headers: minimal,
        data: { content: payload.text },
      });
      outcomes.comment = await outcomeOf(edit, (body: { comment: { content: string } }) => body.comment.content);
    }
  } else {
    outcomes.comment = { refused: 'not tried: the post was refused' };
  }

  const first = stored(outcomes.firstName) ?? 'Neutral';
  const last = stored(outcomes.lastName) ?? 'Name';
  return { payload, user, shownName: `${first} ${last}`.trim(), postId, commentId, outcomes };
}

/** Runs `work` over `items`, `width` at a time. */
async function pool<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}

/** Each payload's post page: the post's content and its comment. */
async function postPages(page: Page): Promise<void> {
  for (const p of planted) {
    if (!p.postId) continue;
    await navigate(page, `/posts/${p.postId}`);
    await expect(page.getByRole('article', { name: `Post by ${p.user.username}` })).toBeVisible();
    await expect(page.getByRole('article', { name: `Comment by ${p.user.username}` })).toBeVisible();
    const texts = await articleParagraphs(page);
    expectText(
      `post page ${p.payload.n}, content`,
      texts[`Post by ${p.user.username}`],
      stored(p.outcomes.post) ?? 'placeholder',
    );
    const comment = stored(p.outcomes.comment) ?? 'placeholder';
    expectText(`post page ${p.payload.n}, comment`, texts[`Comment by ${p.user.username}`], comment);
    await inspect(page, 'Post page');
  }
}

/** What a work in the grid is called: its first words (as post-grid.tsx's gridLabel takes them), by its author. */
function gridLabelStart(content: string, username: string): string {
  const words = content.trim().split(/\s+/).filter(Boolean);
  const first = words.length > 12 ? `${words.slice(0, 12).join(' ')}…` : words.join(' ');
  return `${first || `Default picture of a post by @${username}`}, by @${username}, `;
}

/** Each payload author's profile: name, bio, link and their post (as a work of the grid and as a card). */
async function profilePages(page: Page): Promise<void> {
  for (const p of planted) {
    await navigate(page, `/${p.user.username}`);
    const card = page.locator('section[aria-labelledby="profile-name"]');
    await expect(card.getByText(`@${p.user.username}`)).toBeVisible();
    const grid = page.getByRole('grid', { name: `Posts by @${p.user.username}` });
    await expect(grid.or(page.getByText('has not posted yet'))).toBeVisible();
    const shown = await card.evaluate((section) => ({
      name: section.querySelector('h1')?.textContent ?? null,
      paragraphs: Array.from(section.querySelectorAll('p')).map((el) => el.textContent ?? ''),
      links: Array.from(section.querySelectorAll('a[target="_blank"]')).map((a) => ({
        href: a.getAttribute('href') ?? '',
        text: a.textContent ?? '',
      })),
    }));
    expectText(`profile ${p.user.username}, name`, shown.name, p.shownName);
    const bio = stored(p.outcomes.bio);
    if (bio) expectText(`profile ${p.user.username}, bio`, shown.paragraphs, bio);
    const link = stored(p.outcomes.link);
    if (link) {
      expectText(
        `profile ${p.user.username}, link href`,
        shown.links.map((l) => l.href),
        link,
      );
    }
    for (const { href } of shown.links) {
      if (!/^https?:\/\//.test(href)) findings.dom.push(`profile ${p.user.username}: link to ${href}`);
    }
    const content = stored(p.outcomes.post) ?? 'placeholder';
    if (p.postId) {
      // The grid (the default): the work links to its post, and its label carries the text as text.
      const work = grid.getByRole('link');
      await expect(work).toHaveCount(1);
      await expect(work).toHaveAttribute('href', `/posts/${p.postId}`);
      const label = (await work.getAttribute('aria-label')) ?? '';
      const wanted = gridLabelStart(content, p.user.username);
      expectText(`profile ${p.user.username}, work's label`, label.slice(0, wanted.length), wanted);
    }
    await inspect(page, 'Profile page');

    // The list of cards (?view=list): the post's text in full.
    if (!p.postId) continue;
    await navigate(page, `/${p.user.username}?view=list`);
    await expect(page.getByRole('article', { name: `Post by ${p.user.username}` })).toBeVisible();
    const posts = await articleParagraphs(page);
    expectText(`profile ${p.user.username}, post`, posts[`Post by ${p.user.username}`], content);
    await inspect(page, 'Profile page (list)');
  }
}

test.beforeAll(async ({ playwright }, testInfo) => {
  testInfo.setTimeout(60_000);
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const started = Date.now();
  viewer = await createUser(request);
  planted.push(...(await pool(PAYLOADS, 6, (payload) => plant(request, payload))));
  // The viewer follows every payload author, so Home shows all their posts.
  await pool(planted, 6, async ({ user }) => {
    const id = (
      (await (await request.get(`/api/users/by-username/${user.username}`)).json()) as { user: { _id: string } }
    ).user._id;
    const response = await request.post(`/api/users/follow/${id}`, { headers: authOf(viewer) });
    expect(response.status(), await response.text()).toBe(200);
  });
  await request.dispose();
  findings.setupSeconds = (Date.now() - started) / 1000;
});

// ---- the pages --------------------------------------------------------------------------------------

test.describe('stored XSS', () => {
  test('Home, the search page and the header search draw every payload as text', async ({ browser }, testInfo) => {
    test.setTimeout(60_000);
    const page = await trappedPage(browser, testInfo.project.use.baseURL!, viewer);

    // Home: every payload post, all pages of the feed loaded.
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();

    // The trap catches a real injection: one made on purpose here runs its handler and is reported.
    const control = await page.evaluate(async () => {
      const holder = document.createElement('div');
      holder.innerHTML = '<img src="data:," onerror="__xss=0"><a href="javascript:void 0">x</a>';
      const failed = new Promise((resolve) => holder.querySelector('img')!.addEventListener('error', resolve));
      document.getElementById('root')!.append(holder);
      await failed;
      const seen = { xss: String(window.__xss), hits: window.__xssHits.splice(0), scan: window.__xssScan() };
      holder.remove();
      window.__xss = undefined;
      window.__xssHits.splice(0);
      return seen;
    });
    expect(control.xss).toBe('0');
    expect(control.hits).toContain('window.__xss was set to 0');
    expect(control.hits.some((hit) => hit.startsWith('event handler attribute onerror'))).toBe(true);
    expect(control.scan.some((problem) => problem.startsWith('href=javascript:void0'))).toBe(true);
    const caughtUp = page.getByText('You are all caught up.');
    // Infinite scroll: the next page loads while the end of the list is in view.
    await loadAll(
      page.getByRole('feed').getByRole('article'),
      () => page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight)),
      () => caughtUp.isVisible(),
    );
    const home = await articleParagraphs(page);
    for (const p of planted) {
      const content = stored(p.outcomes.post);
      if (content !== undefined)
        expectText(`Home, post by ${p.user.username}`, home[`Post by ${p.user.username}`], content);
    }
    await inspect(page, 'Home');

    // The search page: every payload user, with name and bio (People pages through "Show more people").
    await navigate(page, `/search?q=${run}`);
    const people = page.getByRole('region', { name: 'People' });
    const showMore = people.getByRole('button', { name: 'Show more people' });
    const loadingMore = people.getByRole('button', { name: 'Loading more people…' });
    await expect(people.getByRole('listitem').first()).toBeVisible();
    await loadAll(
      people.getByRole('listitem'),
      async () => {
        if (await showMore.isVisible()) await showMore.click();
      },
      async () => !(await showMore.isVisible()) && !(await loadingMore.isVisible()),
    );
    const rows = await people.evaluate((section) =>
      Array.from(section.querySelectorAll('li')).map((li) => ({
        texts: Array.from(li.querySelectorAll('a, span, p')).map((el) => el.textContent ?? ''),
      })),
    );
    for (const p of planted) {
      const row = rows.find((r) => r.texts.includes(`@${p.user.username}`));
      expectText(`Search page, ${p.user.username}'s name`, row?.texts, p.shownName);
      const bio = stored(p.outcomes.bio);
      if (bio) expectText(`Search page, ${p.user.username}'s bio`, row?.texts, bio);
    }
    await inspect(page, 'Search page');

    // Payloads as the search term itself: shown back in the heading and the box.
    for (const { text } of PAYLOADS.filter((payload) => payload.n % REFLECT === 1)) {
      const q = text.trim().slice(0, 100);
      if (!q || q.includes('\u0000')) continue;
      await navigate(page, `/search?q=${encodeURIComponent(q)}`);
      // A one-line box drops line breaks from its value.
      await expect(page.getByRole('searchbox', { name: 'Search people and posts' })).toHaveValue(oneLine(q));
      await expect(page.locator('[role="feed"][aria-busy="false"]').or(page.getByText('No posts match'))).toBeVisible();
      await expect(page.getByText('Looking for people…')).toHaveCount(0);
      const description = await page.getByText('Results for “').first().textContent();
      expectText('Search page heading', description, `Results for “${q}”`);
      findings.reflected += 1;
      await inspect(page, 'Search page (payload as the query)');
    }

    // The header's search dropdown: the best people for the run's prefix.
    await navigate(page, '/explore');
    await expect(page.getByRole('heading', { name: 'Explore', level: 1 })).toBeVisible();
    const box = page.getByRole('combobox', { name: 'Search' });
    await box.fill(run);
    const options = page.getByRole('listbox', { name: 'Search results' }).getByRole('option');
    await expect(options.first()).toBeVisible();
    const optionTexts = await options.allTextContents();
    expect(optionTexts.length).toBeGreaterThan(0);
    for (const option of optionTexts) {
      const shown = planted.some((p) => option.includes(p.shownName));
      if (!shown && !option.includes(run)) findings.text.push(`header dropdown: unexpected option ${option}`);
    }
    await inspect(page, 'Header search dropdown');
    await page.context().close();
    expectNoFindings();
  });

  test('each post page and each profile draw the payloads as text, and link only to http(s)', async ({
    browser,
  }, testInfo) => {
    // Two tabs at once: one walks the post pages, the other the profiles (over a hundred pages in all).
    test.setTimeout(90_000);
    const [postTab, profileTab] = await Promise.all(
      [0, 1].map(async () => {
        const page = await trappedPage(browser, testInfo.project.use.baseURL!, viewer);
        await page.goto('/explore');
        await expect(page.getByRole('heading', { name: 'Explore', level: 1 })).toBeVisible();
        return page;
      }),
    );
    await Promise.all([postPages(postTab!), profilePages(profileTab!)]);
    await Promise.all([postTab!.context().close(), profileTab!.context().close()]);
    expectNoFindings();
  });

  test("the author's own editors hold the payloads as field values", async ({ browser }, testInfo) => {
    // The settings form and the post and comment edit dialogs put stored text into inputs and textareas:
    // the place where `</textarea>` and quote breakouts would matter. Two authors at a time.
    test.setTimeout(60_000);
    const chosen = planted.filter((p) => EDITOR_PAYLOADS.some((pick) => p.payload.text.startsWith(pick)) && p.postId);
    expect(chosen.length).toBe(EDITOR_PAYLOADS.length);
    await pool(chosen, 2, async (p) => {
      const page = await trappedPage(browser, testInfo.project.use.baseURL!, p.user);
      await page.goto('/settings');
      await expect(page.getByLabel('First name')).toHaveValue(oneLine(stored(p.outcomes.firstName) ?? 'Neutral'));
      await expect(page.getByLabel('Last name')).toHaveValue(oneLine(stored(p.outcomes.lastName) ?? 'Name'));
      await expect(page.getByLabel('Bio', { exact: true })).toHaveValue(stored(p.outcomes.bio) ?? '');
      await expect(page.getByLabel('Link', { exact: true })).toHaveValue(oneLine(stored(p.outcomes.link) ?? ''));
      await inspect(page, 'Settings (own profile form)');

      await navigate(page, `/posts/${p.postId}`);
      const post = page.getByRole('article', { name: `Post by ${p.user.username}` });
      await post.getByRole('button', { name: 'Post options' }).click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      const postDialog = page.getByRole('dialog', { name: 'Edit Post' });
      await expect(postDialog.getByLabel('What are you thinking?')).toHaveValue(
        stored(p.outcomes.post) ?? 'placeholder',
      );
      await inspect(page, 'Edit Post dialog');
      await page.keyboard.press('Escape');
      await expect(postDialog).toBeHidden();

      const comment = page.getByRole('article', { name: `Comment by ${p.user.username}` });
      await comment.getByRole('button', { name: 'Comment options' }).click();
      await page.getByRole('menuitem', { name: 'Edit Comment' }).click();
      const commentDialog = page.getByRole('dialog', { name: 'Edit Comment' });
      await expect(commentDialog.getByPlaceholder('Edit comment......')).toHaveValue(
        stored(p.outcomes.comment) ?? 'placeholder',
      );
      await inspect(page, 'Edit Comment dialog');
      await page.context().close();
    });
    expectNoFindings();
  });
});

const failedTests: string[] = [];
// eslint-disable-next-line no-empty-pattern -- Playwright reads a hook's first parameter as its fixtures
test.afterEach(({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) failedTests.push(testInfo.title);
});

test.afterAll(async () => {
  if (planted.length === 0) return;
  const tally = (field: Field) => {
    const storedCount = planted.filter((p) => 'stored' in p.outcomes[field]).length;
    const reasons = new Map<string, number>();
    for (const p of planted) {
      const outcome = p.outcomes[field];
      if ('refused' in outcome) reasons.set(outcome.refused, (reasons.get(outcome.refused) ?? 0) + 1);
    }
    const why = [...reasons].map(([reason, count]) => `${count}× ${reason}`).join('; ');
    return `| ${field} | ${storedCount} | ${planted.length - storedCount} | ${why || '–'} |`;
  };
  const kinds = [...new Set(PAYLOADS.map((p) => p.kind))]
    .map((kind) => `${kind} ${PAYLOADS.filter((p) => p.kind === kind).length}`)
    .join(', ');
  const pages = [...findings.pages].map(([label, count]) => `| ${label} | ${count} |`).join('\n');
  const ran = findings.dialogs.length + findings.hits.length;
  const faults = [...findings.dialogs, ...findings.hits, ...findings.dom, ...findings.text];
  const markdown = `
\`e2e/xss.spec.ts\`: ${PAYLOADS.length} payloads, each of which sets \`window.__xss\` or opens a dialog if it runs
(${kinds}), put through the API into every field the app shows (names, bio, link, posts, comments), then
drawn by Chromium with the CSP switched off, so the rendering alone is tested (the production CSP,
\`script-src 'self'\`, is a second layer).
Storing them took ${findings.setupSeconds.toFixed(1)} s (${PAYLOADS.length + 1} sign-ups and about ${PAYLOADS.length * 9} writes).

| Field | Stored | Refused | Why refused |
|---|---|---|---|
${FIELDS.map(tally).join('\n')}

Stored text is kept as typed (trimmed); React draws it as text. Besides, every ${REFLECT}th payload was sent as the
search term itself (${findings.reflected} searches), which the search page shows back in its heading and box.

| Page drawn | Times |
|---|---|
${pages}

Checked on each: no dialog, \`window.__xss\` never set, no \`<script>\`, \`<iframe>\`, \`<object>\`, \`<embed>\`,
\`<base>\` or \`<noscript>\` in the body, no \`on…\` attribute, no \`href\`/\`src\`/\`action\`/\`formaction\`
starting with \`javascript:\`, \`vbscript:\` or \`data:\` (pictures excepted), no \`srcdoc\`, seen both by a
DOM scan after drawing and by a MutationObserver during it; and each stored field shown as exactly its text.

**Scripts run: ${ran}.** Dialogs: ${findings.dialogs.length}. DOM findings: ${findings.dom.length}. Fields shown as
exactly their stored text: ${findings.checked - findings.text.length} of ${findings.checked}. Page errors: ${findings.pageErrors.length}.
Tests failed: ${failedTests.length === 0 ? 0 : `${failedTests.length} (${failedTests.join('; ')}); see the test output`}.
(The trap is checked first: an \`<img onerror>\` and a \`javascript:\` link inserted on purpose are both caught.)
${
  faults.length
    ? `\nFaults:\n\n${faults
        .slice(0, 20)
        .map((f) => `- ${f}`)
        .join('\n')}\n`
    : ''
}`;
  await writeReliabilitySection('xss', markdown);
});
