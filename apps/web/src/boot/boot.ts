/**
 * The boot script: a classic script the head script (head.ts) adds on every page but /landing, built on
 * its own (vite-plugins/boot-script.ts). It runs while the entry is still downloading, and does what would
 * otherwise wait for the entry and the router:
 *
 * 1. asks for the files the page's first render needs (its route chunks and their CSS) beside the entry
 *    (the lists are written in by the build; the head script has /landing's);
 * 2. starts the page's first API requests and preloads its largest picture (page-data.ts);
 * 3. keeps the buttons pressed on a page the server drew until the app can press them (early-clicks.ts);
 * 4. on such a page, loads the app itself once the page is painted and its pictures have loaded (below).
 */
import { addLink } from './dom';
import { preloadHref } from './words';
import { bootRoute, type BootRoute } from './boot-route';
import { catchEarlyClicks } from './early-clicks';
import { startPageRequests } from './page-data';

/** Filled in by the build: the files to preload per route (indexes into `files`, named within `dir`). */
declare const __BOOT_ASSETS__: { dir: string; files: string[]; routes: Partial<Record<BootRoute, number[]>> };

const { route, postId } = bootRoute(window.location.pathname);
const { dir, files, routes } = __BOOT_ASSETS__;

/**
 * The page's route files (its chunks and their CSS), asked for beside the entry. A page the server drew
 * (`drawn`) has the stylesheets inline already (plugins/static-files.ts on the server).
 */
function preloadRoute(drawn: boolean) {
  for (const index of routes[route] ?? []) {
    const name = files[index];
    const css = name?.endsWith('.css');
    // A chunk's words come in the page's language only (words.ts).
    const href = name && preloadHref(dir + name, document.documentElement.lang);
    if (!href || (css && drawn)) continue;
    // Stylesheets are only fetched: the app still adds them (and waits for them) itself, with crossorigin,
    // and a preload only serves a request made in the same mode.
    addLink(css ? { rel: 'preload', as: 'style', crossorigin: '', href } : { rel: 'modulepreload', href });
  }
}

/** How long a drawn page waits for its pictures before it loads the app all the same (see below). */
const ART_FIRST_MS = 1500;

// A page the server drew names the app's scripts in <meta name="app-scripts"> instead of tags of their own
// (plugins/static-files.ts on the server): the entry first, then the files it imports. They and the route's
// files are asked for once the page is painted and its pictures have loaded (the window's load; ART_FIRST_MS at
// most), so on a phone's network the art, the page's largest paint, is not shared with 150 KB of scripts
// (issue 22). The page is readable meanwhile, its links work, and a press on a button is kept for the app
// (early-clicks.ts).
const [entry, ...imports] = document.querySelector<HTMLMetaElement>('meta[name=app-scripts]')?.content.split(' ') ?? [];
if (entry) {
  // A callback of a frame runs before it is painted; a task it queues, after.
  const painted = new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done))));
  // This script delays the window's load itself (the head script added it): it has not fired yet.
  const loaded = new Promise((done) => {
    window.addEventListener('load', done);
    setTimeout(done, ART_FIRST_MS);
  });
  void Promise.all([painted, loaded]).then(() => {
    const app = document.createElement('script');
    app.type = 'module';
    app.src = entry;
    document.head.appendChild(app);
    for (const href of imports) addLink({ rel: 'modulepreload', href });
    preloadRoute(true);
  });
} else {
  preloadRoute(false);
}
startPageRequests(route, postId);
catchEarlyClicks();
