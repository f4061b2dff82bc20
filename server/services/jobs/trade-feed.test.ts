import { EventEmitter } from 'node:events';
import type WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import { TRADE_STREAMS } from '../../exchanges/trade-streams';
import { TradeFeed, type TradeTick } from './trade-feed';

class FakeSocket extends EventEmitter {
  readonly sent: string[] = [];
  terminated = false;
  constructor(readonly path: string) {
    super();
  }
  send(text: string): void {
    this.sent.push(text);
  }
  terminate(): void {
    if (this.terminated) return;
    this.terminated = true;
    this.emit('close');
  }
  /** The topics this socket is subscribed to now (Bybit's `{ op, args }`). */
  topics(): Set<string> {
    const on = new Set<string>();
    for (const m of this.sent.map((t) => JSON.parse(t) as { op: string; args: string[] })) for (const a of m.args) if (m.op === 'subscribe') on.add(a);
    else on.delete(a);
    return on;
  }
}

const tick = () => new Promise((r) => setTimeout(r, 0));
const pair = (k: number, category: 'linear' | 'inverse' = 'linear') => ({ symbol: `P${k}USDT`, exchangeSymbol: `P${k}USDT`, category }) as Instrument;

describe('TradeFeed', () => {
  it('packs the wanted pairs onto as few sockets as the exchange allows, per socket path, and closes emptied ones', async () => {
    const per = TRADE_STREAMS.bybit.perConnection;
    const linear = Array.from({ length: per * 2 + 5 }, (_, k) => pair(k));
    const inverse = [{ symbol: 'BTCUSD', exchangeSymbol: 'BTCUSD', category: 'inverse' } as Instrument];
    const sockets: FakeSocket[] = [];
    const feed = new TradeFeed({
      instruments: async () => [...linear, ...inverse],
      open: () => async (path) => {
        const s = new FakeSocket(path);
        sockets.push(s);
        return s as unknown as WebSocket;
      },
    });
    const heard: TradeTick[] = [];
    const liveness: boolean[] = [];
    const hold = feed.watch('bybit', 'TESTNET', { onTrades: (t) => heard.push(...t), onLive: (l) => liveness.push(l) });
    hold.want([...linear.map((i) => i.symbol), 'BTCUSD', 'NOSUCHPAIR']);
    for (let k = 0; k < 5; k++) await tick();
    const open = () => sockets.filter((s) => !s.terminated);
    expect(open().map((s) => [s.path, s.topics().size])).toEqual([
      ['/v5/public/linear', per],
      ['/v5/public/linear', per],
      ['/v5/public/linear', 5],
      ['/v5/public/inverse', 1],
    ]);
    expect(liveness.at(-1)).toBe(true);

    // A print reaches the watcher by the product's symbol.
    open()[3]!.emit('message', Buffer.from(JSON.stringify({ topic: 'publicTrade.BTCUSD', type: 'snapshot', data: [{ T: 1, s: 'BTCUSD', S: 'Buy', v: '1', p: '65000.5' }] })), false);
    expect(heard).toEqual([{ symbol: 'BTCUSD', price: 65_000.5, time: 1 }]);

    // Fewer pairs: unsubscribed on their sockets, emptied sockets closed.
    hold.want(linear.slice(0, per + 1).map((i) => i.symbol));
    await tick();
    expect(open().map((s) => s.topics().size)).toEqual([per, 1]);
    // A new pair goes to a socket with room on its path, not a new one.
    hold.want(linear.slice(0, per + 2).map((i) => i.symbol));
    await tick();
    expect(open().map((s) => s.topics().size)).toEqual([per, 2]);
    hold.want(linear.slice(0, per + 1).map((i) => i.symbol));
    expect(feed.subscribed('bybit', 'TESTNET')).toHaveLength(per + 1);
    // A dropped socket is live again only once it reconnects, subscribing its pairs again.
    const dropped = open()[1]!;
    dropped.terminate();
    expect(liveness.at(-1)).toBe(false);
    hold.stop();
    expect(open()).toHaveLength(0);
    expect(feed.connections('bybit', 'TESTNET')).toBe(0);
  });
});
