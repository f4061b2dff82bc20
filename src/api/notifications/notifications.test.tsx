import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Notification, NotificationList } from '../contracts/notifications';
import { SERVER_SETTINGS_DEFAULTS, type ServerSettings } from '../contracts/settings';
import { installFakeApi, signInForTest } from '../testing/fake-api';
import { FakeAppSocket } from '../testing/fake-app-socket';
import type { AppStreamSocket } from './app-stream';
import { NOTIFICATIONS_POLL_MS, useNotifications } from './notifications';
import { configureAppStream } from '../use-app-stream';

const NOW = '2026-11-27T10:00:00.000Z';
/** `settings/get-server-settings.ts`'s key (that folder's name is off limits to this one's imports by the lint rule for `src/settings`). */
const serverSettingsQueryKey = ['users', 'settings'] as const;
const note = (n: number, over: Partial<Notification> = {}): Notification => ({
  id: `00000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`,
  kind: 'job',
  title: `Notification ${n}`,
  body: 'body',
  refId: null,
  alert: null,
  read: false,
  createdAt: `2026-11-27T10:00:${String(n).padStart(2, '0')}.000Z`,
  ...over,
});

let api: ReturnType<typeof installFakeApi>;
let list: NotificationList;
const reads = () => api.calls.filter((c) => c.method === 'GET' && c.url === '/v1/notifications').length;

beforeEach(() => {
  FakeAppSocket.all = [];
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  list = { items: [note(2), note(1, { read: true })], unread: 1, now: NOW };
  api = installFakeApi({ 'GET /v1/notifications': () => ({ status: 200, data: list }) });
  configureAppStream({ WebSocket: FakeAppSocket as unknown as AppStreamSocket, url: 'ws://test/v1/stream', random: () => 0 });
  signInForTest();
});
afterEach(() => {
  api.restore();
  vi.useRealTimers();
});

function render(queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })) {
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  // Two callers (the bell, a panel): still one socket for the tab.
  return renderHook(() => [useNotifications(), useNotifications()] as const, { wrapper });
}

/** Testing Library's `waitFor` polls with `setInterval`, which these tests hold: this waits on real timeouts. */
async function waitFor(check: () => void, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (err) {
      if (Date.now() > end) throw err;
      await act(() => new Promise((r) => setTimeout(r, 10)));
    }
  }
}

/** A server message, and what react-query notifies (on its next tick) rendered. */
async function say(s: FakeAppSocket, message: Parameters<FakeAppSocket['receive']>[0]): Promise<void> {
  await act(async () => {
    s.receive(message);
    await new Promise((r) => setTimeout(r, 0));
  });
}

/** Advances the held intervals by one poll period and lets the poll's request run. */
async function onePollPeriod(): Promise<void> {
  await act(async () => {
    vi.advanceTimersByTime(NOTIFICATIONS_POLL_MS);
    await new Promise((r) => setTimeout(r, 20));
  });
}

/** The list as the first caller sees it. */
const titles = (view: ReturnType<typeof render>) => view.result.current[0].data?.items.map((n) => n.title);

describe('useNotifications with the push channel', () => {
  it('opens one socket, resumes from the newest listed, and puts pushes into the list; no polling while it is up', async () => {
    const view = render();
    await waitFor(() => expect(titles(view)).toEqual(['Notification 2', 'Notification 1']));
    expect(FakeAppSocket.all).toHaveLength(1);
    const s = FakeAppSocket.latest()!;
    await act(async () => s.open());
    expect(s.sent).toEqual([{ op: 'auth', accessToken: 'test-access', since: note(2).id, sinceTime: NOW }]);
    // The resume repeats one the list has (slack) and brings one it missed: each listed once.
    await say(s, { type: 'notifications', items: [note(2), note(3)], unread: 2, now: NOW, resume: true });
    expect(titles(view)).toEqual(['Notification 3', 'Notification 2', 'Notification 1']);
    expect(view.result.current[0].data?.unread).toBe(2);

    await say(s, { type: 'notifications', items: [note(4)], unread: 3, now: NOW, resume: false });
    expect(titles(view)).toEqual(['Notification 4', 'Notification 3', 'Notification 2', 'Notification 1']);
    expect(view.result.current[0].data?.unread).toBe(3);

    // Marked read in another tab.
    await say(s, { type: 'notifications-read', ids: null, unread: 0 });
    expect(view.result.current[0].data?.items.every((n) => n.read)).toBe(true);

    const before = reads();
    for (let k = 0; k < 5; k++) await onePollPeriod();
    expect(reads()).toBe(before);
    view.unmount();
  });

  it('polls while the socket is down, and stops once it is back and resumed', async () => {
    const view = render();
    await waitFor(() => expect(titles(view)).toBeDefined());
    for (let k = 1; k <= 3; k++) {
      const before = reads();
      await onePollPeriod();
      await waitFor(() => expect(reads()).toBe(before + 1));
    }

    const s = FakeAppSocket.latest()!;
    await act(async () => s.open());
    await say(s, { type: 'notifications', items: [], unread: 1, now: NOW, resume: true });
    const whileUp = reads();
    for (let k = 0; k < 3; k++) await onePollPeriod();
    expect(reads()).toBe(whileUp);

    // The server goes away: the app polls again until a new socket has resumed.
    await act(async () => s.drop(1006));
    await onePollPeriod();
    await waitFor(() => expect(reads()).toBe(whileUp + 1));
    view.unmount();
  });

  it('a list read while a push arrived keeps the pushed one', async () => {
    const view = render();
    await waitFor(() => expect(titles(view)).toBeDefined());
    const s = FakeAppSocket.latest()!;
    await act(async () => s.open());
    await say(s, { type: 'notifications', items: [note(5)], unread: 2, now: NOW, resume: true });
    // A read that answers an older state (made before the push) — a focus refetch, say.
    await act(async () => {
      await view.result.current[0].refetch();
    });
    expect(titles(view)).toEqual(['Notification 5', 'Notification 2', 'Notification 1']);
    expect(view.result.current[0].data?.unread).toBe(2);
    view.unmount();
  });

  it('settings saved in another tab are read again when the socket says so', async () => {
    const saved = { ...SERVER_SETTINGS_DEFAULTS, alertEmails: true };
    api.route('GET /v1/users/settings', () => ({ status: 200, data: saved }));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    queryClient.setQueryData(serverSettingsQueryKey, SERVER_SETTINGS_DEFAULTS);
    const view = render(queryClient);
    await waitFor(() => expect(titles(view)).toBeDefined());
    const s = FakeAppSocket.latest()!;
    await act(async () => s.open());
    await say(s, { type: 'notifications', items: [], unread: 1, now: NOW, resume: true });
    await say(s, { type: 'settings-changed' });
    await waitFor(() => expect(queryClient.getQueryData<ServerSettings>(serverSettingsQueryKey)?.alertEmails).toBe(true));
    view.unmount();
  });
});
