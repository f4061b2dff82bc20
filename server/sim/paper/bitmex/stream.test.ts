/**
 * BitMEX's private topics on the one `/realtime` socket: `authKeyExpires` as the docs sign it (a wrong
 * signature is refused, private topics need it), then a `partial` and the `order`, `execution`,
 * `position` and `margin` updates after a fill — public topics keep working on the same socket.
 */
import { describe, expect, it } from 'vitest';
import { openSocket, simForFile } from '../testing';
import { bitmexClient, bitmexWsAuth } from './testing';

type Msg = Record<string, unknown>;
const sim = simForFile({ pushIntervalMs: 20 });
const open = () => openSocket(`${sim.ws}/sim/bitmex/realtime`);

describe('bitmex private topics', () => {
  it('private topics need auth; a wrong signature is 401; ping is pong', async () => {
    const c = bitmexClient(sim.app, 'sim-bitmex-bad', { seed: 'crypto-terminal', now: Date.now });
    const s = await open();
    s.ws.send('ping');
    await s.next((m) => m.pong === true);
    s.ws.send(JSON.stringify({ op: 'subscribe', args: ['order'] }));
    expect(await s.next((m) => m.status === 401)).toMatchObject({ error: 'User requires authorization to subscribe to private topics.' });
    s.ws.send(JSON.stringify(bitmexWsAuth(c.apiKey, 'wrong', Math.floor(Date.now() / 1000) + 30)));
    expect(await s.next((m) => m.error === 'Signature not valid.')).toMatchObject({ status: 401 });
    s.ws.close();
  });

  it('partial, then order / execution / position / margin after a market buy, beside a public topic', async () => {
    const c = bitmexClient(sim.app, 'sim-bitmex-ws', { seed: 'crypto-terminal', now: Date.now });
    await c.call('POST', '/order', { symbol: 'XBTUSD', side: 'Buy', orderQty: 100, price: 1000, clOrdID: 'resting' });
    const s = await open();
    s.ws.send(JSON.stringify(bitmexWsAuth(c.apiKey, c.secret, Math.floor(Date.now() / 1000) + 30)));
    expect(await s.next((m) => (m.request as Msg | undefined)?.op === 'authKeyExpires')).toMatchObject({ success: true });
    s.ws.send(JSON.stringify({ op: 'subscribe', args: ['order', 'execution', 'position', 'margin', 'instrument:XBTUSD'] }));
    const partial = await s.next((m) => m.table === 'order' && m.action === 'partial');
    expect(partial).toMatchObject({ keys: ['orderID'], data: [{ clOrdID: 'resting', ordStatus: 'New' }] });
    await s.next((m) => m.table === 'instrument');
    await c.call('POST', '/order', { symbol: 'XBTUSD', side: 'Buy', orderQty: 300, ordType: 'Market', clOrdID: 'ws1' });
    const filled = await s.next((m) => m.table === 'order' && (m.data as Msg[]).some((o) => o.clOrdID === 'ws1' && o.ordStatus === 'Filled'));
    expect(filled.action).toBe('update');
    expect(await s.next((m) => m.table === 'execution' && m.action === 'insert')).toMatchObject({ data: [{ clOrdID: 'ws1', lastQty: 300, execType: 'Trade', settlCurrency: 'XBt' }] });
    // A position the partial did not hold arrives as an `insert` (the client drops updates of unknown rows).
    expect(await s.next((m) => m.table === 'position' && m.action === 'insert')).toMatchObject({ data: [{ symbol: 'XBTUSD', currentQty: 300 }] });
    await s.next((m) => m.table === 'margin' && m.action === 'update');
    s.ws.close();
  });
});
