import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeSocket } from './testing/fake-socket';
import type { ConnectionStatus } from './types';
import { backoffDelay, openReconnectingSocket, resolveWsBase, type HeartbeatStrategy } from './ws-connection';

const backoff = { baseMs: 100, maxMs: 1_000, random: () => 1 };

function open(heartbeat: HeartbeatStrategy) {
  const messages: string[] = [];
  const statuses: ConnectionStatus[] = [];
  const opens: number[] = [];
  const socket = openReconnectingSocket({
    url: 'wss://example.test/stream',
    WebSocket: FakeSocket,
    heartbeat,
    backoff,
    isPong: (t) => t === 'pong',
    onOpen: (send) => {
      opens.push(FakeSocket.instances.length);
      send('{"op":"subscribe"}');
    },
    onMessage: (t) => messages.push(t),
    onStatus: (s) => statuses.push(s),
  });
  return { socket, messages, statuses, opens };
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.reset();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('backoff', () => {
  it('doubles from the base, caps at the maximum, and jitters within [½, 1]', () => {
    const b = { baseMs: 500, maxMs: 30_000 };
    expect([0, 1, 2, 3, 10].map((a) => backoffDelay(a, { ...b, random: () => 1 }))).toEqual([500, 1000, 2000, 4000, 30_000]);
    expect(backoffDelay(3, { ...b, random: () => 0 })).toBe(2000);
  });
});

describe('openReconnectingSocket', () => {
  it('subscribes on open, forwards frames, swallows pongs', () => {
    const { messages, statuses } = open({ mode: 'idle', everyMs: 5_000, timeoutMs: 5_000, message: () => 'ping' });
    const ws = FakeSocket.last();
    ws.open();
    expect(ws.sent).toEqual(['{"op":"subscribe"}']);
    ws.receive('{"a":1}');
    ws.receive('pong');
    expect(messages).toEqual(['{"a":1}']);
    expect(statuses).toEqual(['connecting', 'open']);
  });

  it('idle heartbeat (BitMEX/OKX): pings after silence, reconnects when no answer comes', () => {
    const { statuses } = open({ mode: 'idle', everyMs: 5_000, timeoutMs: 5_000, message: () => 'ping' });
    const ws = FakeSocket.last();
    ws.open();
    vi.advanceTimersByTime(4_999);
    ws.receive('{"trade":1}'); // traffic restarts the silence clock
    vi.advanceTimersByTime(4_999);
    expect(ws.sent).not.toContain('ping');
    vi.advanceTimersByTime(1);
    expect(ws.sent.at(-1)).toBe('ping');
    ws.receive('pong'); // answered: still the same socket
    vi.advanceTimersByTime(5_000);
    expect(ws.sent.filter((s) => s === 'ping')).toHaveLength(2);
    vi.advanceTimersByTime(5_000); // second ping unanswered
    expect(ws.closedByClient).toBe(true);
    expect(statuses.at(-1)).toBe('reconnecting');
    vi.advanceTimersByTime(100);
    expect(FakeSocket.instances).toHaveLength(2);
  });

  it('interval heartbeat (Bybit): pings every period even while data flows', () => {
    open({ mode: 'interval', everyMs: 20_000, timeoutMs: 10_000, message: () => '{"op":"ping"}' });
    const ws = FakeSocket.last();
    ws.open();
    for (let i = 0; i < 4; i += 1) {
      vi.advanceTimersByTime(10_000);
      ws.receive('{"topic":"kline.1.BTCUSDT"}');
    }
    expect(ws.sent.filter((s) => s === '{"op":"ping"}')).toHaveLength(2);
    expect(ws.closedByClient).toBe(false);
  });

  it('no client heartbeat (Binance): a socket silent for the timeout is replaced', () => {
    open({ mode: 'none', everyMs: 0, timeoutMs: 120_000 });
    const ws = FakeSocket.last();
    ws.open();
    vi.advanceTimersByTime(119_000);
    expect(ws.closedByClient).toBe(false);
    vi.advanceTimersByTime(1_000);
    expect(ws.closedByClient).toBe(true);
    expect(ws.sent).toEqual(['{"op":"subscribe"}']);
  });

  it('no client heartbeat: frames keep the socket however long it lives; it is replaced the timeout after the last one', () => {
    open({ mode: 'none', everyMs: 0, timeoutMs: 120_000 });
    const ws = FakeSocket.last();
    ws.open();
    for (let i = 0; i < 10; i += 1) {
      vi.advanceTimersByTime(50_000);
      ws.receive('{"e":"depthUpdate"}');
    }
    expect(ws.closedByClient).toBe(false);
    vi.advanceTimersByTime(119_999);
    expect(ws.closedByClient).toBe(false);
    vi.advanceTimersByTime(1);
    expect(ws.closedByClient).toBe(true);
  });

  it('reconnects with growing delays, resubscribes, and resets the backoff once frames arrive', () => {
    const { opens } = open({ mode: 'idle', everyMs: 60_000, timeoutMs: 5_000, message: () => 'ping' });
    FakeSocket.last().drop(); // never opened: attempt 0 → 100 ms
    vi.advanceTimersByTime(99);
    expect(FakeSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.instances).toHaveLength(2);
    FakeSocket.last().drop(); // attempt 1 → 200 ms
    vi.advanceTimersByTime(199);
    expect(FakeSocket.instances).toHaveLength(2);
    vi.advanceTimersByTime(1);
    const third = FakeSocket.last();
    third.open();
    third.receive('{"x":1}');
    expect(third.sent).toEqual(['{"op":"subscribe"}']);
    third.drop(); // a frame arrived on the last socket: back to 100 ms
    vi.advanceTimersByTime(100);
    expect(FakeSocket.instances).toHaveLength(4);
    FakeSocket.last().open();
    expect(opens).toEqual([3, 4]);
  });

  it('a constructor that throws (bad URL) is retried, not fatal', () => {
    let calls = 0;
    class Failing extends FakeSocket {
      constructor(url: string) {
        calls += 1;
        if (calls === 1) throw new SyntaxError('bad url');
        super(url);
      }
    }
    const socket = openReconnectingSocket({ url: 'x', WebSocket: Failing, heartbeat: { mode: 'none', everyMs: 0, timeoutMs: 1e6 }, backoff, onOpen: () => undefined, onMessage: () => undefined });
    vi.advanceTimersByTime(100);
    expect(calls).toBe(2);
    socket.close();
  });

  it('close() frees everything: no timers, socket closed, handlers detached, no reconnect', () => {
    const { socket, statuses, messages } = open({ mode: 'interval', everyMs: 20_000, timeoutMs: 10_000, message: () => 'p' });
    const ws = FakeSocket.last();
    ws.open();
    vi.advanceTimersByTime(20_000); // a ping is out, its deadline armed
    expect(vi.getTimerCount()).toBeGreaterThan(0);
    socket.close();
    expect(vi.getTimerCount()).toBe(0);
    expect(ws.closedByClient).toBe(true);
    expect(ws.handlersDetached).toBe(true);
    ws.receive('late');
    vi.advanceTimersByTime(60_000);
    expect(messages).toEqual([]);
    expect(FakeSocket.instances).toHaveLength(1);
    expect(statuses.at(-1)).toBe('closed');
  });

  it('close() during the reconnect wait cancels the pending attempt', () => {
    const { socket } = open({ mode: 'none', everyMs: 0, timeoutMs: 1e6 });
    FakeSocket.last().drop();
    expect(vi.getTimerCount()).toBe(1);
    socket.close();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(FakeSocket.instances).toHaveLength(1);
  });
});

describe('resolveWsBase', () => {
  it('keeps absolute ws bases, converts http ones, resolves same-origin paths against the page', () => {
    expect(resolveWsBase('wss://fstream.binance.com/')).toBe('wss://fstream.binance.com');
    expect(resolveWsBase('http://127.0.0.1:8131/sim/okx')).toBe('ws://127.0.0.1:8131/sim/okx');
    expect(resolveWsBase('/sim/bybit', { protocol: 'https:', host: 'terminal.example:8443' })).toBe('wss://terminal.example:8443/sim/bybit');
    expect(resolveWsBase('/sim/bybit', { protocol: 'http:', host: 'localhost:8080' })).toBe('ws://localhost:8080/sim/bybit');
    expect(() => resolveWsBase('/sim/bybit')).toThrow(/outside a browser/);
  });
});
