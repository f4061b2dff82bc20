import { useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { ErrorScreen } from '../ui/error-screen';
import { NotFoundScreen } from '../ui/not-found-screen';
import { reportError } from './sentry';

/** The router's error boundary: a crashed page shows the error screen and is reported to Sentry. */
export function RouteError() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  useEffect(() => {
    if (!notFound) {
      console.error(error);
      reportError(error);
    }
  }, [error, notFound]);
  if (notFound) return <NotFoundScreen />;
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : null;
  return <ErrorScreen detail={detail} />;
}
