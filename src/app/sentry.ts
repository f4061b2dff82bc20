/**
 * Error reporting (SPEC §1): configured from `/v1/config` at run time, so a deployment without a DSN
 * ships no Sentry code to the browser — the SDK is a lazy chunk loaded only when a DSN is set.
 */
type SentryModule = typeof import('@sentry/react');

let sentry: SentryModule | null = null;

/** Sentry options of SPEC §1: every trace sampled, ResizeObserver loop noise ignored. */
export const SENTRY_TRACE_SAMPLE_RATE = 1;
export const SENTRY_IGNORE_ERRORS: (string | RegExp)[] = [/ResizeObserver/];

export async function initSentry(dsn: string, release: string): Promise<void> {
  const module = await import('@sentry/react');
  module.init({
    dsn,
    release,
    tracesSampleRate: SENTRY_TRACE_SAMPLE_RATE,
    ignoreErrors: SENTRY_IGNORE_ERRORS,
    integrations: [module.browserTracingIntegration()],
  });
  sentry = module;
}

/** Reports an error caught by a React error boundary (a no-op without a DSN). */
export function reportError(error: unknown): void {
  sentry?.captureException(error);
}
