import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useDocumentTitle } from '../lib/use-document-title';
import { Button } from '../ui/button';
import { FullPageMessage } from '../ui/full-page-status';

/** Last-resort screen for a route that failed to load or render. */
export function RouteError() {
  const error = useRouteError();
  useDocumentTitle('Error');
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <FullPageMessage
      title={notFound ? 'Page not found' : 'Something went wrong'}
      text={
        notFound ? 'There is nothing at this address.' : 'This page could not be shown. Reloading usually fixes it.'
      }
      action={<Button onClick={() => window.location.reload()}>Reload</Button>}
    />
  );
}
