import type { QueryClient } from '@tanstack/react-query';
import { apiClient } from '../api/client';
import { configQueryKey, getConfig } from '../api/config/get-config';
import { errorMessage, isHttpError } from '../api/errors';
import { toastError } from '../ui/toast';
import { initSentry } from './sentry';

/**
 * SPEC §1: a startup failure toasts the server's message (HTTP errors) or the thrown string;
 * any other error (network failure, bug) goes to the console only.
 */
export function reportStartupError(error: unknown): void {
  if (isHttpError(error)) toastError(errorMessage(error, 'Unable to start the app'));
  else if (typeof error === 'string') toastError(error);
  else console.error('Startup failed', error);
}

/**
 * Runs once before the routes render (the app shows a spinner meanwhile): loads the run-time
 * configuration, starts error reporting and restores the session from the stored refresh token
 * (SPEC §4). Never rejects: the app starts signed out if anything fails.
 */
export async function startup(queryClient: QueryClient): Promise<void> {
  try {
    // First, and awaited: this GET also hands out the XSRF cookie the refresh POST needs.
    const config = await getConfig();
    queryClient.setQueryData(configQueryKey, config);
    if (config.sentryDsn) {
      initSentry(config.sentryDsn, config.version).catch((error: unknown) => console.error('Sentry failed to start', error));
    }
  } catch (error) {
    reportStartupError(error);
  }
  try {
    await apiClient.initialize();
  } catch (error) {
    reportStartupError(error);
  }
}
