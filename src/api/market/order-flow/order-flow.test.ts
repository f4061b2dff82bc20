import { crc32 as zlibCrc32 } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import type { WebSocketLike } from '../ws-connection';
import { acquireOrderFlow, openOrderFlowCount } from './registry';
import { crc32 } from './crc32';
import { LocalBook } from './local-book';
import { addSizes, TradeRing } from './trade-ring';

describe('crc32', () => {
  it('is zlib\'s CRC-32, signed as OKX sends it', () => {
    for (const text of ['', 'a', '3366.1:7:3366.8:9:3366:6:3368:8', '67391.5:0.25:67392:1.203']) {
      expect(crc32(text)).toBe(zlibCrc32(Buffer.from(text)) | 0);
    }
  });
});

describe('LocalBook', () => {
  it('keeps bids descending and asks ascending, removes size 0, reuses levels', () => {
    const book = new LocalBook();
    book.set(0, '100.5', '2');
    book.set(0, '101', '1');
    book.set(0, '99', '3');
    book.set(1, '102', '4');
    book.set(1, '101.5', '5');
    expect(book.sides[0].map((l) => l.price)).toEqual(['101', '100.5', '99']);
    expect(book.sides[1].map((l) => l.price)).toEqual(['101.5', '102']);
    const removed = book.sides[0][1]!;
    book.set(0, '100.5', '0');
    book.set(0, '98', '1');
    expect(book.sides[0].map((l) => `${l.price}:${l.size}`)).toEqual(['101:1', '99:3', '98:1']);
    expect(book.sides[0][2]).toBe(removed);
    expect(book.sane()).toBe(true);
  });

  it('computes OKX\'s checksum of the top 25 interleaved, the strings as received', () => {
    const book = new LocalBook();
    book.set(0, '3366.1', '7');
    book.set(0, '3366', '6');
    book.set(1, '3366.8', '9');
    book.set(1, '3368', '8');
    book.set(1, '3372', '8');
    expect(book.okxChecksum()).toBe(zlibCrc32(Buffer.from('3366.1:7:3366.8:9:3366:6:3368:8:3372:8')) | 0);
  });
});

describe('TradeRing', () => {
  it('adds sizes exactly', () => {
    expect(addSizes('0.1', '0.2')).toBe('0.3');
    expect(addSizes('0.250', '0.75')).toBe('1');
    expect(addSizes('100', '2500')).toBe('2600');
    expect(addSizes('0.00000001', '0.00000009')).toBe('0.0000001');
  });

  it('merges same-side prints within 5 ms into one with a count and the exact size sum', () => {
    const ring = new TradeRing(4, 5);
    ring.push(1000, '100.1', '0.1', 'buy', 'a');
    ring.push(1003, '100.2', '0.2', 'buy', 'b');
    ring.push(1004, '100.0', '1', 'sell', 'c');
    ring.push(1010, '100.3', '0.3', 'buy', 'd');
    const [d, c, ab] = ring.newestFirst();
    expect(ab).toMatchObject({ id: 'a', time: 1000, price: '100.2', size: '0.3', count: 2, side: 'buy' });
    expect(c).toMatchObject({ id: 'c', count: 1, side: 'sell' });
    expect(d).toMatchObject({ id: 'd', count: 1 });
  });

  it('keeps the newest `capacity` prints, newest first, and drops replays older than the newest', () => {
    const ring = new TradeRing(3, 0);
    for (let i = 0; i < 5; i++) ring.push(1000 + i * 10, String(100 + i), '1', i % 2 ? 'buy' : 'sell', String(i));
    expect(ring.push(1005, '1', '1', 'buy', 'old')).toBe(false);
    expect(ring.newestFirst().map((t) => t.id)).toEqual(['4', '3', '2']);
    expect(ring.newestFirst(2).map((t) => t.id)).toEqual(['4', '3']);
  });
});

/** A socket that never connects, counting how many were opened and closed. */
const sockets = { opened: 0, closed: 0 };
class IdleSocket implements WebSocketLike {
  readyState = 0;
  onopen = null;
  onmessage = null;
  onclose = null;
  onerror = null;
  constructor() {
    sockets.opened += 1;
  }
  send(): void {}
  close(): void {
    this.readyState = 3;
    sockets.closed += 1;
  }
}

describe('acquireOrderFlow', () => {
  it('shares one feed per exchange, pair and network, and closes it after the last release', () => {
    vi.useFakeTimers();
    try {
      const endpoints = { rest: 'http://x', restTestnet: 'http://x', ws: 'ws://x', wsTestnet: 'ws://x' };
      const options = { WebSocket: IdleSocket, fetch: () => new Promise<Response>(() => undefined) };
      const a = acquireOrderFlow({ exchange: 'bybit', symbol: 'BTCUSDT', testnet: false }, endpoints, options);
      const b = acquireOrderFlow({ exchange: 'bybit', symbol: 'BTCUSDT', testnet: false, category: 'linear' }, endpoints, { ...options, tickSize: '0.1' });
      const other = acquireOrderFlow({ exchange: 'bybit', symbol: 'BTCUSDT', testnet: true }, endpoints, options);
      expect(b.feed).toBe(a.feed);
      expect(other.feed).not.toBe(a.feed);
      expect(a.feed.book().tickSize).toBe('0.1');
      expect(sockets.opened).toBe(2);
      a.release();
      a.release(); // a second release of the same handle changes nothing
      vi.advanceTimersByTime(5_000);
      expect(openOrderFlowCount()).toBe(2);
      b.release();
      // Taken again within the linger: the same feed, no new socket.
      vi.advanceTimersByTime(500);
      const c = acquireOrderFlow({ exchange: 'bybit', symbol: 'BTCUSDT', testnet: false }, endpoints, options);
      expect(c.feed).toBe(a.feed);
      c.release();
      other.release();
      vi.advanceTimersByTime(1_000);
      expect(openOrderFlowCount()).toBe(0);
      expect(sockets).toEqual({ opened: 2, closed: 2 });
    } finally {
      vi.useRealTimers();
    }
  });
});

/** A socket that opens at once and then stays quiet. */
class QuietSocket implements WebSocketLike {
  readyState = 0;
  onopen: ((ev: never) => void) | null = null;
  onmessage = null;
  onclose = null;
  onerror = null;
  constructor() {
    setTimeout(() => {
      this.readyState = 1;
      this.onopen?.({} as never);
    }, 0);
  }
  send(): void {}
  close(): void {
    this.readyState = 3;
  }
}

describe('binance snapshot', () => {
  it('a busy answer (429) is asked again and the book goes live; an unknown symbol (400) is an error', async () => {
    const endpoints = { rest: 'http://x', restTestnet: 'http://x', ws: 'ws://x', wsTestnet: 'ws://x' };
    const answers = [new Response('{"code":-1003,"msg":"Too many requests"}', { status: 429 }), Response.json({ lastUpdateId: 8, bids: [['100', '1']], asks: [['100.1', '2']] })];
    const busy = acquireOrderFlow({ exchange: 'binance', symbol: 'BTCUSDT', testnet: false }, endpoints, { WebSocket: QuietSocket, fetch: () => Promise.resolve(answers.shift()!) });
    const bad = acquireOrderFlow({ exchange: 'binance', symbol: 'NOPEUSDT', testnet: false }, endpoints, {
      WebSocket: QuietSocket,
      fetch: () => Promise.resolve(new Response('{"code":-1121,"msg":"Invalid symbol."}', { status: 400 })),
    });
    try {
      await vi.waitFor(() => expect(busy.feed.book().status).toBe('live'), { timeout: 5_000 });
      expect(busy.feed.book(1).asks[0]!.price).toBe('100.1');
      await vi.waitFor(() => expect(bad.feed.book().status).toBe('error'));
      expect(bad.feed.book().error).toBe('Invalid symbol.');
    } finally {
      busy.release();
      bad.release();
    }
  });
});
