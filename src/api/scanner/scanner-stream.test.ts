import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { INVALID_ACCESS_TOKEN } from '../client';
import { packRowPatches, scannerServerMessageSchema, type ScannerServerMessage } from '../contracts/scanner';
import { openScannerStream, readScannerMessage, scannerStreamUrl } from './scanner-stream';

/** A WebSocket the test drives: what was sent, and server messages on demand. */
class FakeSocket {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  closed = false;
  onopen: ((ev: Event) => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onclose: ((ev: CloseEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.closed = true;
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  receive(message: ScannerServerMessage | { type: 'error'; status: number; message: string }) {
    this.onmessage?.({ data: JSON.stringify(message) } as MessageEvent);
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({} as CloseEvent);
  }
}

const latest = () => FakeSocket.all[FakeSocket.all.length - 1];

beforeEach(() => {
  FakeSocket.all = [];
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

const options = (token: string | null = 'access-1', refresh = vi.fn(async () => undefined)) => ({
  url: 'ws://test/v1/scanner/stream',
  WebSocket: FakeSocket as unknown as new (url: string) => FakeSocket,
  getAccessToken: () => token,
  refreshTokens: refresh,
});

describe('openScannerStream', () => {
  it('authenticates, subscribes once ready, hands on messages, and resubscribes on a new set', () => {
    const onMessage = vi.fn();
    const stream = openScannerStream(['binance'], { onMessage }, options());
    const s = latest();
    s.open();
    expect(s.sent).toEqual([{ op: 'auth', accessToken: 'access-1' }]);
    s.receive({ type: 'ready' });
    expect(s.sent[1]).toEqual({ op: 'subscribe', exchanges: ['binance'] });
    const update = { type: 'update' as const, exchange: 'binance' as const, blocks: [{ fields: ['last' as const], rows: [['BTCUSDT', 1] as [string, number]] }] };
    s.receive(update);
    expect(onMessage).toHaveBeenLastCalledWith(update);
    stream.setExchanges(['binance', 'okx']);
    expect(s.sent[2]).toEqual({ op: 'subscribe', exchanges: ['binance', 'okx'] });
    stream.close();
    expect(s.closed).toBe(true);
  });

  it('reconnects with backoff after a drop and subscribes again', () => {
    openScannerStream(['bybit'], { onMessage: vi.fn() }, options());
    latest().open();
    latest().receive({ type: 'ready' });
    latest().drop();
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(500);
    expect(FakeSocket.all).toHaveLength(2);
    latest().open();
    latest().receive({ type: 'ready' });
    expect(latest().sent).toEqual([
      { op: 'auth', accessToken: 'access-1' },
      { op: 'subscribe', exchanges: ['bybit'] },
    ]);
  });

  it('an expired token: refresh once, reconnect with the new one', async () => {
    let token = 'old';
    const refresh = vi.fn(async () => {
      token = 'new';
    });
    openScannerStream([], { onMessage: vi.fn() }, { ...options(), getAccessToken: () => token, refreshTokens: refresh });
    latest().open();
    latest().receive({ type: 'error', status: 401, message: INVALID_ACCESS_TOKEN });
    await vi.runAllTimersAsync();
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(FakeSocket.all).toHaveLength(2);
    latest().open();
    expect(latest().sent[0]).toEqual({ op: 'auth', accessToken: 'new' });
  });

  it('403 (the scanner turned off) is final: reported, no reconnect', async () => {
    const onRefused = vi.fn();
    openScannerStream([], { onMessage: vi.fn(), onRefused }, options());
    latest().open();
    latest().receive({ type: 'error', status: 403, message: 'The scanner is turned off (FF_ENABLE_SCANNER)' });
    await vi.runAllTimersAsync();
    expect(onRefused).toHaveBeenCalledWith(403, 'The scanner is turned off (FF_ENABLE_SCANNER)');
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('signed out: no socket at all', () => {
    const onRefused = vi.fn();
    openScannerStream([], { onMessage: vi.fn(), onRefused }, options(null));
    expect(FakeSocket.all).toHaveLength(0);
    expect(onRefused).toHaveBeenCalledWith(401, expect.any(String));
  });

  it('messages are checked: updates by hand (fast), the others by the schema; anything else is dropped', () => {
    const update = { type: 'update', exchange: 'okx', blocks: [{ fields: ['last', 'openInterest'], rows: [['BTCUSDT', 1, null]] }] };
    expect(readScannerMessage(JSON.stringify(update))).toEqual(update);
    const bad = (change: (u: typeof update) => unknown) => readScannerMessage(JSON.stringify(change(structuredClone(update))));
    expect(bad((u) => ({ ...u, exchange: 'ftx' }))).toBeNull();
    expect(bad((u) => ({ ...u, blocks: [{ fields: ['last', 'openInterest'], rows: [['BTCUSDT', '1', null]] }] }))).toBeNull();
    expect(bad((u) => ({ ...u, blocks: [{ fields: ['last', 'openInterest'], rows: [['BTCUSDT', 1]] }] }))).toBeNull(); // a value short
    expect(bad((u) => ({ ...u, blocks: [{ fields: ['price'], rows: [['BTCUSDT', 1]] }] }))).toBeNull(); // no such field
    expect(bad((u) => ({ ...u, blocks: [{ fields: ['last'], rows: [[1, 1]] }] }))).toBeNull();
    expect(readScannerMessage('{"type":"ready"}')).toEqual({ type: 'ready' });
    expect(readScannerMessage('{"type":"snapshot","exchange":"okx"}')).toBeNull();
    expect(readScannerMessage('not json')).toBeNull();
  });

  it('the schema and the fast check agree on what a block is; packRowPatches groups patches by their fields', () => {
    const blocks = packRowPatches([
      { symbol: 'A', last: 1, changePercent: 2 },
      { symbol: 'B', changePercent: 3, last: 4 },
      { symbol: 'C', atrPercent: null },
      { symbol: 'D' },
    ]);
    expect(blocks).toEqual([
      { fields: ['last', 'changePercent'], rows: [['A', 1, 2], ['B', 4, 3]] },
      { fields: ['atrPercent'], rows: [['C', null]] },
    ]);
    const message = { type: 'update' as const, exchange: 'bybit' as const, blocks };
    expect(scannerServerMessageSchema.parse(message)).toEqual(message);
    expect(readScannerMessage(JSON.stringify(message))).toEqual(message);
  });

  it('the URL follows the page’s scheme and host', () => {
    expect(scannerStreamUrl({ protocol: 'https:', host: 'terminal.example:8443' })).toBe('wss://terminal.example:8443/v1/scanner/stream');
    expect(scannerStreamUrl({ protocol: 'http:', host: '127.0.0.1:8090' })).toBe('ws://127.0.0.1:8090/v1/scanner/stream');
  });
});
