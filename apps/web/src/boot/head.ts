/**
 * The head script: the one classic script in <head>, built on its own and written inline into index.html
 * (vite-plugins/boot-script.ts; the server's CSP allows it by its hash). It runs before the first paint:
 *
 * 1. sets the theme (the saved choice, else the system's), so the first paint has the right colours, and the
 *    language and its direction (issue 43);
 * 2. on /landing, asks for the page's own files beside the entry, instead of after the entry has run and
 *    the router has asked for them (the list is written in by the build);
 * 3. anywhere else, loads the boot script (boot.ts), which does the same for the other pages and starts
 *    their first API requests.
 *
 * Every page carries it, /landing's too, whose budget is tight: it stays this small.
 */
import { isLocale, localeDirection, matchLocale, STORAGE_KEYS } from '@share-arts/contract';
import { addLink, readStorage } from './dom';
import { installWords, preloadHref } from './words';

/** Filled in by the build: /landing's files, the boot script's address, and the assets' folder. */
declare const __BOOT_HEAD__: { landing: string[]; boot: string; assets: string };

// The saved choice, else the system's; while nothing is saved, a change of the system's follows (lib/theme.ts
// reads the attribute, so the toggle stays in step).
const systemDark = window.matchMedia('(prefers-color-scheme: dark)');
const applyTheme = () => {
  const saved = readStorage(STORAGE_KEYS.theme);
  document.documentElement.dataset.theme =
    saved === 'dark' || saved === 'light' ? saved : systemDark.matches ? 'dark' : 'light';
};
applyTheme();
systemDark.addEventListener('change', applyTheme);
// The language (issue 43): the saved choice, else the best match of the browser's; right to left for Arabic. The
// app's first render loads its catalogue (lib/i18n.ts), and the page is laid out in its direction from the start.
const savedLocale = readStorage(STORAGE_KEYS.locale);
const locale = isLocale(savedLocale) ? savedLocale : matchLocale(navigator.languages ?? [navigator.language]);
document.documentElement.lang = locale;
document.documentElement.dir = localeDirection(locale);
const { landing, boot, assets } = __BOOT_HEAD__;
// Each chunk of the app loads its words in this language before it runs (words.ts).
installWords(assets);
// A shared page the server drew is a visitor's: someone signed in never sees it (styles/global.css), and waits
// for their own, which the app draws. A viewer's Home the server drew for the session cookie (issue 22) names
// the session's token payload (<meta name="viewer">): it is hidden unless the stored token is that session's
// (signed out here, or in as someone else, it is not theirs to see). Without scripts it is the cookie's.
const token = readStorage(STORAGE_KEYS.token);
if (token) document.documentElement.dataset.signedIn = '';
const viewer = document.querySelector<HTMLMetaElement>('meta[name=viewer]')?.content;
if (viewer && token?.split('.')[1] !== viewer) document.documentElement.dataset.otherViewer = '';

if (window.location.pathname.replace(/\/+$/, '') === '/landing') {
  // The app adds its stylesheets with crossorigin, and a preload only serves a request made in the same
  // mode; it still adds them (and waits for them) itself.
  // A chunk's words come in the page's language only (words.ts).
  for (const listed of landing) {
    const href = preloadHref(listed, locale);
    if (!href) continue;
    addLink(
      href.endsWith('.css') ? { rel: 'preload', as: 'style', crossorigin: '', href } : { rel: 'modulepreload', href },
    );
  }
} else {
  const script = document.createElement('script');
  script.src = boot;
  // An added script is fetched at low priority, behind the entry; this one starts the page's requests.
  script.fetchPriority = 'high';
  document.head.appendChild(script);
}
