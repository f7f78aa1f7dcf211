import { Trans, useLingui } from '@lingui/react/macro';
import { Navigate, Outlet, useLocation } from 'react-router';
import { sessionEndedByLogout, useCurrentUser } from '../../lib/session';
import { Button } from '../../ui/button';
import { FullPageLoading, FullPageMessage } from '../../ui/full-page-status';
import { useRouteFlag } from '../route-handle';
import type { FromState } from './from-location';

/**
 * Lets only signed-in users through; visitors go to /landing, remembering where they were going. A page
 * marked public (RouteHandle.public: a shared post, profile or tag) lets visitors read it.
 */
export function RequireAuth() {
  const { t } = useLingui();
  const location = useLocation();
  const { data: user, isPending, isError, refetch } = useCurrentUser();
  const readable = useRouteFlag('public');

  if (isPending) return <FullPageLoading />;
  if (isError) {
    return (
      <FullPageMessage
        title={t`We could not check your session`}
        text={t`Share Arts is not answering right now. Check your connection and try again.`}
        action={
          <Button onClick={() => void refetch()}>
            <Trans>Try again</Trans>
          </Button>
        }
      />
    );
  }
  if (!user && readable) return <Outlet />;
  if (!user) {
    // After LOG OUT there is nowhere to come back to: the next login goes to /.
    if (sessionEndedByLogout()) return <Navigate to="/landing" replace />;
    const state: FromState = {
      from: { pathname: location.pathname, search: location.search, hash: location.hash },
    };
    return <Navigate to="/landing" replace state={state} />;
  }
  return <Outlet />;
}
