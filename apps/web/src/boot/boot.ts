/**
 * The boot script: a classic script the head script (head.ts) adds on every page but /landing, built on
 * its own (vite-plugins/boot-script.ts). It runs while the entry is still downloading, and does what would
 * otherwise wait for the entry and the router:
 *
 * 1. asks for the files the page's first render needs (its route chunks and their CSS) beside the entry
 *    (the lists are written in by the build; the head script has /landing's);
 * 2. starts the page's first API requests and preloads its largest picture (page-data.ts);
 * 3. keeps the buttons pressed on a page the server drew until the app can press them (early-clicks.ts).
 */
import { addLink } from './dom';
import { bootRoute, type BootRoute } from './boot-route';
import { catchEarlyClicks } from './early-clicks';
import { startPageRequests } from './page-data';

/** Filled in by the build: the files to preload per route (indexes into `files`). */
declare const __BOOT_ASSETS__: { files: string[]; routes: Partial<Record<BootRoute, number[]>> };

const { route, postId } = bootRoute(window.location.pathname);
const { files, routes } = __BOOT_ASSETS__;
// A page the server drew has its stylesheets inline, each with a disabled link of its address (never fetched),
// so the app does not add it again (plugins/static-files.ts on the server): those are not asked for either.
const inline = new Set([...document.querySelectorAll('link[rel=stylesheet]')].map((link) => link.getAttribute('href')));
for (const index of routes[route] ?? []) {
  const href = files[index];
  if (!href || inline.has(href)) continue;
  // Stylesheets are only fetched: the app still adds them (and waits for them) itself, with crossorigin,
  // and a preload only serves a request made in the same mode.
  addLink(
    href.endsWith('.css') ? { rel: 'preload', as: 'style', crossorigin: '', href } : { rel: 'modulepreload', href },
  );
}
startPageRequests(route, postId);
catchEarlyClicks();
