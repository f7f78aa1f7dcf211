import type { ComponentType } from 'react';
import { createBrowserRouter } from 'react-router';
import { FullPageLoading } from '../ui/full-page-status';
import { legacyPostRedirect } from './guards/legacy-post-path';
import { RequireAuth } from './guards/require-auth';
import { RouteError } from './route-error';

/** Lazy route module: each page and layout is its own chunk, so /landing downloads little. */
const lazyComponent = (load: () => Promise<{ default: ComponentType }>) => async () => ({
  Component: (await load()).default,
});

export const router = createBrowserRouter([
  {
    HydrateFallback: FullPageLoading,
    ErrorBoundary: RouteError,
    children: [
      { path: 'landing', lazy: lazyComponent(() => import('../features/landing/landing-page')) },
      {
        lazy: lazyComponent(() => import('./layouts/auth-layout')),
        children: [
          { path: 'login', lazy: lazyComponent(() => import('../features/auth/pages/login-page')) },
          {
            path: 'signup',
            lazy: lazyComponent(() => import('../features/auth/pages/signup-page')),
          },
        ],
      },
      {
        Component: RequireAuth,
        children: [
          {
            path: 'mockman',
            lazy: lazyComponent(() => import('../features/mockman/pages/mockman-page')),
          },
          {
            lazy: lazyComponent(() => import('./layouts/app-layout')),
            children: [
              {
                index: true,
                lazy: lazyComponent(() => import('../features/feed/pages/home-page')),
              },
              {
                path: 'explore',
                lazy: lazyComponent(() => import('../features/feed/pages/explore-page')),
              },
              {
                path: 'profile',
                lazy: lazyComponent(() => import('../features/profile/pages/profile-page')),
              },
              {
                path: 'settings',
                lazy: lazyComponent(() => import('../features/settings/pages/settings-page')),
              },
              {
                path: 'posts/:postId',
                lazy: lazyComponent(() => import('../features/posts/pages/post-page')),
              },
              {
                path: ':username',
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
]);
