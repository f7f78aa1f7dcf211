import type { BootRoute } from './boot-route.ts';

/** The router, which every page but a first visit of /landing starts (main.tsx). */
const APP = 'src/app/start-app.tsx';
const PROVIDERS = 'src/app/providers.tsx';
const AUTH = [APP, PROVIDERS, 'src/app/layouts/auth-layout.tsx'];
const SIGNED_IN = [APP, PROVIDERS, 'src/app/guards/require-auth.tsx', 'src/app/layouts/app-layout.tsx'];
/** The pages the router imports through app/rare-pages.ts. */
const RARE = 'src/app/rare-pages.ts';

/**
 * The modules (from apps/web) each page's first render loads through its route's `lazy` (app/router.tsx).
 * The build turns them into the files they end up in, with what those import and their CSS, and the boot
 * script asks for that list at once, beside the entry, instead of after it (see vite-plugins/boot-script.ts).
 */
export const ROUTE_MODULES: Record<BootRoute, readonly string[]> = {
  landing: ['src/features/landing/pages/standalone-landing.tsx'],
  login: [...AUTH, 'src/features/auth/pages/login-page.tsx'],
  signup: [...AUTH, 'src/features/auth/pages/signup-page.tsx'],
  mockman: [APP, PROVIDERS, RARE, 'src/features/mockman/pages/mockman-page.tsx'],
  feed: [...SIGNED_IN, 'src/features/feed/pages/home-page.tsx'],
  explore: [...SIGNED_IN, 'src/features/feed/pages/explore-page.tsx'],
  post: [...SIGNED_IN, 'src/features/post-page/pages/post-page.tsx'],
  search: [...SIGNED_IN, RARE, 'src/features/search/pages/search-page.tsx'],
  notifications: [...SIGNED_IN, 'src/features/notifications/pages/notifications-page.tsx'],
  settings: [...SIGNED_IN, RARE, 'src/features/settings/pages/settings-page.tsx'],
  profile: [...SIGNED_IN, 'src/features/profile/pages/profile-page.tsx'],
  tag: [...SIGNED_IN, 'src/features/tags/pages/tag-page.tsx'],
  series: [...SIGNED_IN, 'src/features/series-page/pages/series-page.tsx'],
  collection: [...SIGNED_IN, 'src/features/collection-page/pages/collection-page.tsx'],
  inquiries: [...SIGNED_IN, 'src/features/inquiries/pages/inquiries-page.tsx'],
  inquiry: [...SIGNED_IN, 'src/features/inquiries/pages/inquiry-page.tsx'],
  other: [...SIGNED_IN, 'src/app/not-found-page.tsx'],
};
