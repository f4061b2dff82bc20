/**
 * Issue 24: a sim key's secret is random, minted once and kept sealed — nothing about it follows from
 * the key's name. Standalone simulators on one database (PGlite and PostgreSQL): a key minted on one
 * instance works on another sharing the sealing key, and on none with another sealing key.
 */
import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simCredentials } from '../../db/schema-sim';
import { createTestDatabase, TEST_DRIVERS } from '../../test/helper';
import type { SimExchange } from '../market/catalogue';
import { startSim, type SimServer } from '../testing';
import { SimKeyring } from './keyring';

const EXCHANGES: SimExchange[] = ['binance', 'bybit', 'bitmex', 'okx'];
const SEALING = 'sealing-key-of-these-tests-at-least-32-characters';
/** What the old scheme made of a key name: anyone could compute it. */
const DEFAULT_SEED = 'crypto-terminal';
const derivedSecret = (apiKey: string) => createHmac('sha256', DEFAULT_SEED).update(apiKey).digest('hex');
const derivedPassphrase = (apiKey: string) => createHmac('sha256', DEFAULT_SEED).update(`okx-passphrase:${apiKey}`).digest('hex').slice(0, 16);

interface Creds {
  apiKey: string;
  apiSecret: string;
  passphrase: string;
}

async function mint(app: FastifyInstance, exchange: SimExchange, query = ''): Promise<Creds> {
  const res = await app.inject({ method: 'POST', url: `/sim/_control/credentials?exchange=${exchange}${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Creds>();
}

/** One signed private call, signed exactly as the exchange's docs say: `ok`, or the exchange's error code / message. */
async function signedCall(app: FastifyInstance, exchange: SimExchange, c: Creds): Promise<string> {
  const hmac = (payload: string, enc: 'hex' | 'base64' = 'hex') => createHmac('sha256', c.apiSecret).update(payload).digest(enc);
  const now = Date.now();
  if (exchange === 'binance') {
    const q = `timestamp=${now}`;
    const res = await app.inject({ method: 'GET', url: `/sim/binance/fapi/v1/accountConfig?${q}&signature=${hmac(q)}`, headers: { 'x-mbx-apikey': c.apiKey } });
    return res.statusCode === 200 ? 'ok' : String(res.json<{ code: number }>().code);
  }
  if (exchange === 'bybit') {
    const ts = String(now);
    const headers = { 'x-bapi-api-key': c.apiKey, 'x-bapi-timestamp': ts, 'x-bapi-recv-window': '5000', 'x-bapi-sign': hmac(`${ts}${c.apiKey}5000`) };
    const code = (await app.inject({ method: 'GET', url: '/sim/bybit/v5/user/query-api', headers })).json<{ retCode: number }>().retCode;
    return code === 0 ? 'ok' : String(code);
  }
  if (exchange === 'bitmex') {
    const expires = String(Math.floor(now / 1000) + 60);
    const headers = { 'api-key': c.apiKey, 'api-expires': expires, 'api-signature': hmac(`GET/api/v1/apiKey${expires}`) };
    const res = await app.inject({ method: 'GET', url: '/sim/bitmex/api/v1/apiKey', headers });
    return res.statusCode === 200 ? 'ok' : res.json<{ error: { message: string } }>().error.message;
  }
  const ts = new Date(now).toISOString();
  const headers = { 'OK-ACCESS-KEY': c.apiKey, 'OK-ACCESS-SIGN': hmac(`${ts}GET/api/v5/account/config`, 'base64'), 'OK-ACCESS-TIMESTAMP': ts, 'OK-ACCESS-PASSPHRASE': c.passphrase };
  const code = (await app.inject({ method: 'GET', url: '/sim/okx/api/v5/account/config', headers })).json<{ code: string }>().code;
  return code === '0' ? 'ok' : code;
}

/** Each exchange's own answers: a wrong signature, and a key it does not know. */
const BAD_SIGNATURE: Record<SimExchange, string> = { binance: '-1022', bybit: '10004', bitmex: 'Signature not valid.', okx: '50113' };
const UNKNOWN_KEY: Record<SimExchange, string> = { binance: '-2015', bybit: '10003', bitmex: 'Invalid API Key.', okx: '50111' };

describe.each(TEST_DRIVERS)('simulator keys on %s', (driver) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let one: SimServer;
  let two: SimServer;
  let stranger: SimServer;
  beforeAll(async () => {
    database = await createTestDatabase(driver);
    const db = database.handle.db;
    one = await startSim({ db, sealingKey: SEALING });
    two = await startSim({ db, sealingKey: SEALING });
    stranger = await startSim({ db, sealingKey: `another-${SEALING}` });
  });
  afterAll(async () => {
    await stranger?.close();
    await two?.close();
    await one?.close();
    await database?.close();
  });

  it('mints random secrets: two keys have unrelated secrets, and none is the HMAC of its name', async () => {
    const a = await mint(one.app, 'okx', '&label=same');
    const b = await mint(one.app, 'okx', '&label=same');
    expect(a.apiKey).toMatch(/^sim-same-[0-9a-f]{8}$/);
    expect(b.apiKey).not.toBe(a.apiKey);
    expect(a.apiSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(b.apiSecret).not.toBe(a.apiSecret);
    expect(b.passphrase).not.toBe(a.passphrase);
    for (const c of [a, b]) {
      expect(c.apiSecret).not.toBe(derivedSecret(c.apiKey));
      expect(c.passphrase).not.toBe(derivedPassphrase(c.apiKey));
    }
    expect((await mint(one.app, 'bybit', '&label=w&withdraw=true&readonly=1')).apiKey).toMatch(/^sim-w-withdraw-readonly-[0-9a-f]{8}$/);
  });

  it.each(EXCHANGES)('%s: the minted secret signs; HMAC(default seed, key) is refused with the exchange’s own error', async (exchange) => {
    const c = await mint(one.app, exchange);
    expect(await signedCall(one.app, exchange, c)).toBe('ok');
    const forged = { ...c, apiSecret: derivedSecret(c.apiKey) };
    expect(await signedCall(one.app, exchange, forged)).toBe(BAD_SIGNATURE[exchange]);
    if (exchange === 'okx') expect(await signedCall(one.app, exchange, { ...forged, passphrase: derivedPassphrase(c.apiKey) })).toBe('50105');
  });

  it.each(EXCHANGES)('%s: a name nobody minted is an unknown key, whatever it signs with', async (exchange) => {
    const apiKey = `sim-never-minted-${exchange}`;
    expect(await signedCall(one.app, exchange, { apiKey, apiSecret: derivedSecret(apiKey), passphrase: derivedPassphrase(apiKey) })).toBe(UNKNOWN_KEY[exchange]);
  });

  it('keeps no plaintext: the row holds the secret and passphrase sealed, bound to the key', async () => {
    const c = await mint(one.app, 'okx');
    const [row] = await database.handle.db.select().from(simCredentials).where(eq(simCredentials.apiKey, c.apiKey));
    expect(row).toMatchObject({ apiKey: c.apiKey, exchange: 'okx' });
    const text = JSON.stringify(row);
    for (const s of [c.apiSecret, c.passphrase, Buffer.from(c.apiSecret).toString('base64'), Buffer.from(c.passphrase).toString('base64')]) expect(text).not.toContain(s);
    expect(row.secretSealed.split('.')).toHaveLength(3);
    // A sealed secret moved to another key's row does not open there: that key becomes unknown.
    const other = await mint(one.app, 'binance');
    await database.handle.db.update(simCredentials).set({ secretSealed: row.secretSealed }).where(eq(simCredentials.apiKey, other.apiKey));
    expect(await signedCall(two.app, 'binance', { ...other, apiSecret: c.apiSecret })).toBe(UNKNOWN_KEY.binance);
  });

  it.each(EXCHANGES)('%s: a key minted on instance 1 works on instance 2 (one database), not under another sealing key', async (exchange) => {
    const c = await mint(one.app, exchange);
    expect(await signedCall(two.app, exchange, c)).toBe('ok');
    expect(await signedCall(two.app, exchange, { ...c, apiSecret: derivedSecret(c.apiKey) })).toBe(BAD_SIGNATURE[exchange]);
    expect(await signedCall(stranger.app, exchange, c)).toBe(UNKNOWN_KEY[exchange]);
  });

  it('answers 400 to a malformed mint request', async () => {
    expect((await one.app.inject({ method: 'POST', url: '/sim/_control/credentials?exchange=kraken' })).statusCode).toBe(400);
    expect((await one.app.inject({ method: 'POST', url: '/sim/_control/credentials', payload: { exchange: 'okx', label: 'no spaces' } })).statusCode).toBe(400);
  });
});

describe('the key ring', () => {
  it('issues a named key once, looks keys up through the database, and forgets a name it lost', async () => {
    const database = await createTestDatabase('pglite');
    try {
      const db = async () => database.handle.db;
      const a = new SimKeyring({ db, sealingKey: SEALING, cacheSize: 2 });
      const b = new SimKeyring({ db, sealingKey: SEALING });
      const k = a.issue('bybit', 'sim-named');
      expect(a.cached('sim-named')).toEqual({ secret: k.secret, passphrase: k.passphrase });
      expect(() => a.issue('bybit', 'sim-named')).toThrow(/exists already/);
      expect(() => a.issue('bybit', 'not-a-sim-key')).toThrow();
      expect(await k.stored).toBe(true);
      expect(b.cached('sim-named')).toBeUndefined();
      expect(await b.secretOf('sim-named')).toEqual({ secret: k.secret, passphrase: k.passphrase });
      expect(await b.secretOf('sim-nobody')).toBeNull();
      expect(await b.secretOf('nope')).toBeNull();
      // b mints the same name again: taken in the database, so b forgets its own secret for it
      const lost = b.issue('bybit', 'sim-lost');
      const won = a.issue('bybit', 'sim-lost');
      expect(await lost.stored).toBe(true);
      expect(await won.stored).toBe(false);
      expect(a.cached('sim-lost')).toBeUndefined();
      expect((await a.secretOf('sim-lost'))?.secret).toBe(lost.secret);
      // the cache is bounded
      for (const name of ['sim-x1', 'sim-x2', 'sim-x3']) a.issue('binance', name);
      await a.settled();
      expect(a.cached('sim-x1')).toBeUndefined();
      expect((await a.secretOf('sim-x1'))?.secret).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await database.close();
    }
  });
});
