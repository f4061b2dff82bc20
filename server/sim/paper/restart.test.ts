/**
 * Restart: orders, fills, positions and balances acknowledged by the paper exchange survive a
 * `kill -9` of the server process (write-through: each change is committed before the answer),
 * on a PGlite data directory and on PostgreSQL. The account is loaded lazily on the next request.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, TEST_DRIVERS } from '../../test/helper';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'restart-child.ts');
/** Minted by the first child (random secret, sealed in the database): the second one must know it too. */
let key = { apiKey: '', apiSecret: '' };
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

async function startChild(target: string): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, target], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += String(d)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child did not start: ${err}`)), 60_000);
    child.stdout!.on('data', (d) => {
      out += String(d);
      const m = /\{"port":(\d+)\}/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.on('exit', (code) => reject(new Error(`child exited (${code}): ${err}`)));
  });
  return { child, base: `http://127.0.0.1:${port}/sim/binance` };
}

async function call(base: string, method: string, p: string, params: Record<string, string> = {}) {
  const payload = new URLSearchParams({ ...params, timestamp: String(Date.now()) }).toString();
  const signed = `${payload}&signature=${createHmac('sha256', key.apiSecret).update(payload).digest('hex')}`;
  const get = method === 'GET' || method === 'DELETE';
  const res = await fetch(`${base}${p}${get ? `?${signed}` : ''}`, {
    method,
    headers: { 'x-mbx-apikey': key.apiKey, ...(get ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
    ...(get ? {} : { body: signed }),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

/** What must survive, without the fields that move with the market (mark, unrealised PnL, timestamps of reads). */
async function state(base: string) {
  const strip = (rows: unknown) => (rows as Array<Record<string, unknown>>).map(({ markPrice: _m, unRealizedProfit: _u, notional: _n, isolatedMargin: _i, initialMargin: _im, positionInitialMargin: _pim, maintMargin: _mm, updateTime: _t, ...rest }) => rest);
  const balance = (await call(base, 'GET', '/fapi/v3/balance')).body as Array<Record<string, unknown>>;
  return {
    open: (await call(base, 'GET', '/fapi/v1/openOrders', { symbol: 'BTCUSDT' })).body,
    algo: (await call(base, 'GET', '/fapi/v1/openAlgoOrders', { symbol: 'BTCUSDT' })).body,
    all: (await call(base, 'GET', '/fapi/v1/allOrders', { symbol: 'BTCUSDT' })).body,
    trades: (await call(base, 'GET', '/fapi/v1/userTrades', { symbol: 'BTCUSDT' })).body,
    positions: strip((await call(base, 'GET', '/fapi/v3/positionRisk')).body),
    wallet: balance.map((b) => [b.asset, b.balance]),
  };
}

describe.each(TEST_DRIVERS)('paper exchange restart (kill -9) on %s', (driver) => {
  it('keeps every acknowledged order, fill, position and balance', async () => {
    let target: string;
    let cleanup: () => Promise<void>;
    if (driver === 'pglite') {
      const dir = mkdtempSync(path.join(tmpdir(), 'paper-restart-'));
      target = path.join(dir, 'pgdata');
      cleanup = async () => rmSync(dir, { recursive: true, force: true });
    } else {
      const db = await createPostgresDatabase();
      target = db.url;
      cleanup = db.drop;
    }
    try {
      const first = await startChild(target);
      const minted = await fetch(`${first.base.replace(/\/binance$/, '')}/_control/credentials?exchange=binance&label=restart`, { method: 'POST' });
      expect(minted.status).toBe(200);
      key = (await minted.json()) as typeof key;
      const buy = await call(first.base, 'POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.003' });
      expect(buy.status).toBe(200);
      expect((await call(first.base, 'POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.010', price: '20000', newClientOrderId: 'resting' })).status).toBe(200);
      expect((await call(first.base, 'POST', '/fapi/v1/algoOrder', { algoType: 'CONDITIONAL', symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_MARKET', triggerPrice: '15000', quantity: '0.003', reduceOnly: 'true' })).status).toBe(200);
      expect((await call(first.base, 'POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: '7' })).status).toBe(200);
      const before = await state(first.base);
      first.child.kill('SIGKILL');
      await new Promise((r) => first.child.once('exit', r));

      const second = await startChild(target);
      const after = await state(second.base);
      expect(after).toEqual(before);
      expect((before.open as unknown[]).length).toBe(1);
      expect((before.algo as unknown[]).length).toBe(1);
      expect((before.trades as unknown[]).length).toBe(1);
      expect(before.positions).toMatchObject([{ symbol: 'BTCUSDT', positionAmt: '0.003' }]);
      // …and it keeps trading where it left off: ids continue, nothing is duplicated
      const next = await call(second.base, 'POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.003', reduceOnly: 'true' });
      expect((next.body as { orderId: number }).orderId).toBeGreaterThan((buy.body as { orderId: number }).orderId);
      second.child.kill('SIGKILL');
    } finally {
      await cleanup();
    }
    // Two server processes started one after the other (tsx compiles each): on a loaded 2-core machine
    // that alone can pass the default 30 s.
  }, 180_000);
});
