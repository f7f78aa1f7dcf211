import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { FullPageLoading } from '../ui/full-page-status';
import { legacyPostRedirect } from './guards/legacy-post-path';
import { loadProviders } from './load-providers';
import type * as RarePages from './rare-pages';
import type { RouteHandle } from './route-handle';
import { RouteError } from './route-error';
import { RootLayout } from './root-layout';

/**
 * Lazy route module: each page and layout is its own chunk, so /landing downloads little. Every route
 * but /landing also waits for the providers chunk (TanStack Query, toasts, the session), fetched in
 * parallel with the route's own chunks.
 */
const lazyComponent = (load: () => Promise<{ default: ComponentType }>) => async () => {
  const [module] = await Promise.all([load(), loadProviders()]);
  return { Component: module.default };
};

/** /landing needs no server state: neither the providers nor the session check. */
const lazyStandalone = (load: () => Promise<{ default: ComponentType }>) => async () => ({
  Component: (await load()).default,
});

/** A page seldom opened first, through app/rare-pages.ts (which says why). */
const rare = (load: (pages: typeof RarePages) => Promise<{ default: ComponentType }>) => () =>
  import('./rare-pages').then(load);

/** Pages with the "Who to follow" suggestions beside them (read by the app layout). */
const SUGGESTIONS: RouteHandle = { suggestions: true };
/** Pages that lay out their own width (the post page puts the artwork beside its details). */
const WIDE: RouteHandle = { wide: true };
/** Pages a shared link opens: readable by visitors without an account (RequireAuth lets them through). */
const PUBLIC: RouteHandle = { public: true };

/** The app's routes; the server renders the pages a link is shared to with them too (src/entry-server.tsx). */
export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    HydrateFallback: FullPageLoading,
    ErrorBoundary: RouteError,
    children: [
      { path: 'landing', lazy: lazyStandalone(() => import('../features/landing/pages/routed-landing')) },
      // The mailed confirmation link, signed in or not (issue 24).
      { path: 'verify-email', lazy: lazyComponent(rare((pages) => pages.loadVerifyEmailPage())) },
      // The link mailed to the old address after a change undoes it, signed in or not (issue 38).
      { path: 'undo-email', lazy: lazyComponent(rare((pages) => pages.loadUndoEmailPage())) },
      // An app's authorization (issue 45): the link is checked, a visitor signs in and comes back, then consents.
      { path: 'oauth/authorize', lazy: lazyComponent(rare((pages) => pages.loadAuthorizePage())) },
      {
        lazy: lazyComponent(() => import('./layouts/auth-layout')),
        children: [
          { path: 'login', lazy: lazyComponent(() => import('../features/auth/pages/login-page')) },
          {
            path: 'signup',
            lazy: lazyComponent(() => import('../features/auth/pages/signup-page')),
          },
          // Password reset by mail (issue 24).
          {
            path: 'forgot-password',
            lazy: lazyComponent(rare((pages) => pages.loadForgotPasswordPage())),
          },
          {
            path: 'reset-password',
            lazy: lazyComponent(rare((pages) => pages.loadResetPasswordPage())),
          },
        ],
      },
      // Public: developers also try unauthenticated calls (the page reads a stored token if there is one).
      { path: 'mockman', lazy: lazyComponent(rare((pages) => pages.loadMockmanPage())) },
      {
        lazy: lazyComponent(() => import('./guards/require-auth').then((module) => ({ default: module.RequireAuth }))),
        children: [
          {
            lazy: lazyComponent(() => import('./layouts/app-layout')),
            children: [
              {
                index: true,
                handle: SUGGESTIONS,
                lazy: lazyComponent(() => import('../features/feed/pages/home-page')),
              },
              {
                path: 'explore',
                // The works across the page, first on a phone too; "Who to follow" stays beside Home.
                handle: WIDE,
                lazy: lazyComponent(() => import('../features/feed/pages/explore-page')),
              },
              {
                path: 'profile',
                handle: WIDE,
                lazy: lazyComponent(() => import('../features/profile/pages/profile-page')),
              },
              {
                path: 'search',
                lazy: lazyComponent(rare((pages) => pages.loadSearchPage())),
              },
              {
                path: 'notifications',
                // Imported from the layout's chunk: the list of chunks this page needs then travels there, not in
                // the entry that /landing downloads, and the chunks the layout already loaded are not split again.
                lazy: lazyComponent(() =>
                  import('./layouts/app-layout').then((module) => module.loadNotificationsPage()),
                ),
              },
              {
                path: 'settings',
                lazy: lazyComponent(rare((pages) => pages.loadSettingsPage())),
              },
              {
                // Privacy and safety, Account: the same page, on its other parts.
                path: 'settings/:section',
                lazy: lazyComponent(rare((pages) => pages.loadSettingsPage())),
              },
              {
                // Moderators and admins only: the page shows everyone else the not-found page. Loaded from the
                // layout's chunk, as notifications: its chunks' list stays out of the entry.
                path: 'moderation',
                lazy: lazyComponent(() => import('./layouts/app-layout').then((module) => module.loadModerationPage())),
              },
              {
                // An artist's own insights (issue 42): their profile and works, and one work's.
                path: 'insights',
                lazy: lazyComponent(() => import('../features/insights/pages/insights-page')),
              },
              {
                path: 'insights/posts/:postId',
                lazy: lazyComponent(() => import('../features/insights/pages/post-insights-page')),
              },
              {
                // Inquiries (issue 42): the inbox (received and sent) and one thread.
                path: 'inquiries',
                lazy: lazyComponent(() => import('../features/inquiries/pages/inquiries-page')),
              },
              {
                path: 'inquiries/:id',
                lazy: lazyComponent(() => import('../features/inquiries/pages/inquiry-page')),
              },
              {
                // The artist's drafts and scheduled posts (issue 41), seldom the first page of a visit.
                path: 'drafts',
                lazy: lazyComponent(rare((pages) => pages.loadDraftsPage())),
              },
              {
                path: 'posts/:postId',
                handle: { ...WIDE, ...PUBLIC },
                lazy: lazyComponent(() => import('../features/post-page/pages/post-page')),
              },
              {
                path: 'tags/:tag',
                handle: PUBLIC,
                lazy: lazyComponent(() => import('../features/tags/pages/tag-page')),
              },
              {
                // An artist's series (issue 41), shared like a profile: its grid takes the page's width.
                path: ':username/series/:slug',
                handle: { ...WIDE, ...PUBLIC },
                lazy: lazyComponent(() => import('../features/series-page/pages/series-page')),
              },
              {
                // A collection (issue 41), shared like a series when public; private ones are their owner's alone.
                path: ':username/collections/:slug',
                handle: { ...WIDE, ...PUBLIC },
                lazy: lazyComponent(() => import('../features/collection-page/pages/collection-page')),
              },
              // Static segments (explore, search, notifications, settings, profile, posts) rank above this one, and
              // the server reserves those words as usernames, so a profile can never shadow a page.
              {
                path: ':username',
                // A portfolio's grid takes the page's width.
                handle: { ...WIDE, ...PUBLIC },
                loader: legacyPostRedirect,
                lazy: lazyComponent(() => import('../features/profile/pages/profile-page')),
              },
              { path: '*', lazy: lazyComponent(() => import('./not-found-page')) },
            ],
          },
        ],
      },
    ],
  },
];

/** The app's router, created when main.tsx starts the app (not while the bundle is evaluated). */
export const createAppRouter = () => createBrowserRouter(routes);
