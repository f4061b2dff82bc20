import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Notification } from '../contracts/notifications';
import { FakeAppSocket } from '../testing/fake-app-socket';
import { APP_STREAM_BACKOFF, appStreamUrl, openAppStream, type AppStreamOptions, type AppStreamSocket } from './app-stream';

beforeEach(() => {
  FakeAppSocket.all = [];
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

const latest = () => FakeAppSocket.latest()!;
const NOW = '2026-11-27T10:00:00.000Z';
const note = (id: string): Notification => ({ id, kind: 'alert', title: 'Alert triggered: BTCUSDT', body: 'rose', refId: null, alert: null, read: false, createdAt: NOW });
const resumed = (items: Notification[] = []) => ({ type: 'notifications' as const, items, unread: items.length, now: NOW, resume: true });

const options = (over: Partial<AppStreamOptions> = {}): AppStreamOptions => ({
  url: 'ws://test/v1/stream',
  WebSocket: FakeAppSocket as unknown as AppStreamSocket,
  getAccessToken: () => 'access-1',
  refreshTokens: vi.fn(async () => undefined),
  random: () => 1,
  ...over,
});

describe('openAppStream', () => {
  it('authenticates with what the tab last saw, and is open only once the resume arrived', () => {
    const onMessage = vi.fn();
    const onState = vi.fn();
    const id = '00000000-0000-4000-8000-0000000000a1';
    openAppStream({ onMessage, onState }, options({ resumeFrom: () => ({ since: id, sinceTime: NOW }) }));
    const s = latest();
    expect(s.url).toBe('ws://test/v1/stream');
    s.open();
    expect(s.sent).toEqual([{ op: 'auth', accessToken: 'access-1', since: id, sinceTime: NOW }]);
    s.receive({ type: 'authenticated' });
    expect(onState).toHaveBeenLastCalledWith('connecting');
    s.receive(resumed([note('00000000-0000-4000-8000-0000000000a2')]));
    expect(onState).toHaveBeenLastCalledWith('open');
    s.receive({ type: 'keepalive' });
    s.receive({ type: 'notifications', items: [note('00000000-0000-4000-8000-0000000000a3')], unread: 2, now: NOW, resume: false });
    expect(onMessage.mock.calls.map(([m]) => (m as { items?: Notification[] }).items?.map((n) => n.id))).toEqual([
      ['00000000-0000-4000-8000-0000000000a2'],
      ['00000000-0000-4000-8000-0000000000a3'],
    ]);
  });

  it('reconnects with a jittered back-off that doubles to a cap, back to the start once resumed, asking from the newest it holds', () => {
    let since = 'a';
    const onState = vi.fn();
    openAppStream({ onMessage: () => undefined, onState }, options({ random: () => 0, resumeFrom: () => ({ since, sinceTime: NOW }) }));
    const waits: number[] = [];
    for (let k = 0; k < 9; k++) {
      latest().drop();
      expect(onState).toHaveBeenLastCalledWith('down');
      const before = FakeAppSocket.all.length;
      let waited = 0;
      while (FakeAppSocket.all.length === before) {
        vi.advanceTimersByTime(50);
        waited += 50;
      }
      waits.push(waited);
    }
    // random() = 0: half of 500, 1000, 2000, … capped at 30 s.
    const half = (ms: number) => Math.min(ms, APP_STREAM_BACKOFF.maxMs) / 2;
    expect(waits).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 32_000, 64_000, 128_000].map(half));

    since = 'b';
    const s = latest();
    s.open();
    expect(s.sent[0]).toMatchObject({ op: 'auth', since: 'b' });
    s.receive(resumed());
    s.drop();
    const before = FakeAppSocket.all.length;
    vi.advanceTimersByTime(APP_STREAM_BACKOFF.firstMs / 2);
    expect(FakeAppSocket.all.length).toBe(before + 1);
  });

  it('on 4401 refreshes the tokens once and reconnects with the new one; a second 4401 before a resume backs off', async () => {
    let token = 'access-1';
    const refreshTokens = vi.fn(async () => {
      token = 'access-2';
    });
    openAppStream({ onMessage: () => undefined }, options({ getAccessToken: () => token, refreshTokens }));
    latest().open();
    latest().drop(4401);
    await vi.advanceTimersByTimeAsync(0);
    expect(refreshTokens).toHaveBeenCalledTimes(1);
    const s = latest();
    expect(FakeAppSocket.all).toHaveLength(2);
    s.open();
    expect(s.sent[0]).toMatchObject({ op: 'auth', accessToken: 'access-2' });
    s.drop(4401);
    await vi.advanceTimersByTimeAsync(0);
    expect(refreshTokens).toHaveBeenCalledTimes(1);
    expect(FakeAppSocket.all).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(APP_STREAM_BACKOFF.firstMs);
    expect(FakeAppSocket.all).toHaveLength(3);
  });

  it('takes a silent socket for dead and reconnects; close() ends it for good', () => {
    const stream = openAppStream({ onMessage: () => undefined }, options({ idleMs: 60_000 }));
    const s = latest();
    s.open();
    s.receive(resumed());
    vi.advanceTimersByTime(59_000);
    s.receive({ type: 'keepalive' });
    vi.advanceTimersByTime(59_000);
    expect(s.closed).toBe(false);
    vi.advanceTimersByTime(2_000);
    expect(s.closed).toBe(true);
    vi.advanceTimersByTime(APP_STREAM_BACKOFF.firstMs);
    expect(FakeAppSocket.all).toHaveLength(2);
    stream.close();
    expect(latest().closed).toBe(true);
    vi.advanceTimersByTime(120_000);
    expect(FakeAppSocket.all).toHaveLength(2);
  });

  it('without a token it stays down; the URL follows the page', () => {
    const onState = vi.fn();
    openAppStream({ onMessage: () => undefined, onState }, options({ getAccessToken: () => null }));
    expect(FakeAppSocket.all).toHaveLength(0);
    expect(onState).toHaveBeenLastCalledWith('down');
    expect(appStreamUrl({ protocol: 'https:', host: 'app.example' })).toBe('wss://app.example/v1/stream');
  });
});
