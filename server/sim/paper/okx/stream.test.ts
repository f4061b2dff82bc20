/**
 * OKX's private WebSocket on the paper exchange: login as the docs sign it (a wrong one is 60009),
 * then `orders` (with the fill fields), `positions` and `account` after a market order; demo sockets
 * (x-simulated-trading) see only the demo account.
 */
import { describe, expect, it } from 'vitest';
import { openSocket, simForFile } from '../testing';
import { okxClient, okxWsLogin } from './testing';

type Msg = Record<string, unknown>;
const sim = simForFile({ pushIntervalMs: 20 });
const open = (path: string, headers: Record<string, string> = {}) => openSocket(`${sim.ws}${path}`, headers);

describe('okx private stream', () => {
  it('refuses a wrong login (60009), answers ping with pong', async () => {
    const c = okxClient(sim.app, 'sim-okx-bad', { seed: 'crypto-terminal', now: Date.now });
    const s = await open('/sim/okx/ws/v5/private');
    s.ws.send('ping');
    await s.next((m) => m.pong === true);
    s.ws.send(JSON.stringify(okxWsLogin({ ...c, secret: 'wrong' }, Date.now())));
    expect(await s.next((m) => m.event === 'error')).toMatchObject({ code: '60009', msg: 'Login failed.' });
    s.ws.send(JSON.stringify({ op: 'subscribe', args: [{ channel: 'orders', instType: 'SWAP' }] }));
    expect(await s.next((m) => m.event === 'error' && m.code === '60011')).toMatchObject({ msg: 'Please log in.' });
    s.ws.close();
  });

  it('orders (with fill fields), positions and account after a market buy; the demo socket gets only its own snapshots', async () => {
    const c = okxClient(sim.app, 'sim-okx-stream', { seed: 'crypto-terminal', now: Date.now });
    // The standalone sim opens its in-memory database on first use (seconds on a loaded machine): before the sockets.
    await c.call('GET', '/api/v5/account/balance');
    const s = await open('/sim/okx/ws/v5/private');
    const demo = await open('/sim/okx/ws/v5/private', { 'x-simulated-trading': '1' });
    for (const x of [s, demo]) {
      x.ws.send(JSON.stringify(okxWsLogin(c, Date.now())));
      expect(await x.next((m) => m.event === 'login')).toMatchObject({ code: '0' });
      x.ws.send(JSON.stringify({ op: 'subscribe', args: [{ channel: 'orders', instType: 'SWAP' }, { channel: 'positions', instType: 'SWAP' }, { channel: 'account' }] }));
      await x.next((m) => m.event === 'subscribe' && (m.arg as Msg).channel === 'account');
    }
    const r = await c.call('POST', '/api/v5/trade/order', { instId: 'BTC-USDT-SWAP', tdMode: 'cross', side: 'buy', ordType: 'market', sz: '3', clOrdId: 'ws1' });
    expect(r.body.code).toBe('0');
    const filled = await s.next((m) => (m.arg as Msg | undefined)?.channel === 'orders' && Array.isArray(m.data) && (m.data as Msg[]).some((o) => o.state === 'filled'));
    expect((filled.data as Msg[]).find((o) => o.state === 'filled')).toMatchObject({ clOrdId: 'ws1', fillSz: '3', accFillSz: '3', side: 'buy', instId: 'BTC-USDT-SWAP' });
    const pos = await s.next((m) => (m.arg as Msg | undefined)?.channel === 'positions' && Array.isArray(m.data) && (m.data as Msg[]).length > 0);
    expect((pos.data as Msg[])[0]).toMatchObject({ instId: 'BTC-USDT-SWAP', pos: '3' });
    const acc = await s.next((m) => (m.arg as Msg | undefined)?.channel === 'account' && Array.isArray(m.data));
    expect(((acc.data as Msg[])[0].details as Msg[]).some((d) => d.ccy === 'USDT')).toBe(true);
    await new Promise((res) => setTimeout(res, 100));
    // The demo account got its subscription snapshots (no position, its own 10,000 USDT) and nothing else.
    const demoPushes = demo.messages.filter((m) => m.arg && m.data);
    expect(demoPushes.map((m) => [(m.arg as Msg).channel, (m.data as Msg[]).length])).toEqual([
      ['positions', 0],
      ['account', 1],
    ]);
    s.ws.close();
    demo.ws.close();
  });

  it('orders-algo on the /business socket: a placed stop shows live, a cancelled one canceled', async () => {
    const c = okxClient(sim.app, 'sim-okx-algo', { seed: 'crypto-terminal', now: Date.now });
    const b = await open('/sim/okx/ws/v5/business');
    b.ws.send(JSON.stringify({ op: 'subscribe', args: [{ channel: 'orders-algo', instType: 'SWAP' }] }));
    expect(await b.next((m) => m.event === 'error')).toMatchObject({ code: '60011' });
    b.ws.send(JSON.stringify(okxWsLogin(c, Date.now())));
    await b.next((m) => m.event === 'login');
    b.ws.send(JSON.stringify({ op: 'subscribe', args: [{ channel: 'orders-algo', instType: 'SWAP' }] }));
    await b.next((m) => m.event === 'subscribe');
    await c.call('POST', '/api/v5/trade/order', { instId: 'BTC-USDT-SWAP', tdMode: 'cross', side: 'buy', ordType: 'market', sz: '1' });
    const placed = await c.call('POST', '/api/v5/trade/order-algo', { instId: 'BTC-USDT-SWAP', tdMode: 'cross', side: 'sell', ordType: 'conditional', sz: '1', slTriggerPx: '1000', slOrdPx: '-1', reduceOnly: true });
    const algoId = String(placed.body.data[0].algoId);
    expect(await b.next((m) => Array.isArray(m.data) && (m.data as Msg[]).some((a) => a.algoId === algoId && a.state === 'live'))).toMatchObject({ arg: { channel: 'orders-algo' } });
    await c.call('POST', '/api/v5/trade/cancel-algos', [{ instId: 'BTC-USDT-SWAP', algoId }]);
    await b.next((m) => Array.isArray(m.data) && (m.data as Msg[]).some((a) => a.algoId === algoId && a.state === 'canceled'));
    b.ws.close();
  });
});
