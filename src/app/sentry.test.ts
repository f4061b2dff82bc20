import { describe, expect, it, vi } from 'vitest';

const init = vi.fn();
const captureException = vi.fn();
vi.mock('@sentry/react', () => ({ init, captureException, browserTracingIntegration: () => ({ name: 'BrowserTracing' }) }));

const { initSentry, reportError } = await import('./sentry');

describe('Sentry (SPEC §1)', () => {
  it('reports nothing before it is configured', () => {
    reportError(new Error('early'));
    expect(captureException).not.toHaveBeenCalled();
  });

  it('samples every trace and ignores ResizeObserver errors', async () => {
    await initSentry('https://key@sentry.example/1', '1.2.3');
    const options = init.mock.calls[0][0] as { dsn: string; release: string; tracesSampleRate: number; ignoreErrors: RegExp[] };
    expect(options).toMatchObject({ dsn: 'https://key@sentry.example/1', release: '1.2.3', tracesSampleRate: 1 });
    const ignored = (message: string) => options.ignoreErrors.some((p) => p.test(message));
    expect(ignored('ResizeObserver loop completed with undelivered notifications.')).toBe(true);
    expect(ignored('ResizeObserver loop limit exceeded')).toBe(true);
    expect(ignored('TypeError: x is undefined')).toBe(false);
    const error = new Error('boom');
    reportError(error);
    expect(captureException).toHaveBeenCalledWith(error);
  });
});
