import { Outlet } from 'react-router';
import { useLoadedProviders } from './load-providers';

/**
 * The root route's element. Routes that need server state resolve `loadProviders()` in their `lazy`
 * before they render, so by then the providers are here; once here they stay mounted (a toast raised
 * on the way to /landing, e.g. after signing out, still shows). A first visit to /landing renders
 * without them: no TanStack Query, react-toastify, session or API client in its download.
 */
export function RootLayout() {
  const wrap = useLoadedProviders();
  return wrap ? wrap(<Outlet />) : <Outlet />;
}
