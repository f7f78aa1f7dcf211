import { Trans, useLingui } from '@lingui/react/macro';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useDocumentTitle } from '../lib/use-document-title';
import { Button } from '../ui/button';
import { FullPageMessage } from '../ui/full-page-status';

/** Last-resort screen for a route that failed to load or render. */
export function RouteError() {
  const { t } = useLingui();
  const error = useRouteError();
  useDocumentTitle(t`Error`);
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <FullPageMessage
      title={notFound ? t`Page not found` : t`Something went wrong`}
      text={
        notFound ? t`There is nothing at this address.` : t`This page could not be shown. Reloading usually fixes it.`
      }
      action={
        <Button onClick={() => window.location.reload()}>
          <Trans>Reload</Trans>
        </Button>
      }
    />
  );
}
