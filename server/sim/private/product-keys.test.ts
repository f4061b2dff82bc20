/**
 * Issue 24 in the product (MARKET_DATA=sim), on PGlite and PostgreSQL: `POST /v1/api-keys/sim-credentials`
 * hands out a minted key's secret once (the simulator keeps it sealed in `sim_credentials`), the user
 * stores it sealed in `api_keys` as any key, and another instance on the same database accepts it.
 */
import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKey, SimCredentials } from '../../../src/api/contracts/api-keys';
import { buildApp } from '../../app';
import { apiKeys } from '../../db/schema-api-keys';
import { simCredentials } from '../../db/schema-sim';
import { createTestApp, RecordingMailer, TEST_DRIVERS, TestClient, type SignedIn, type TestApp } from '../../test/helper';

const KEY_PASSWORD = 'a key password of the test';

describe.each(TEST_DRIVERS)('simulator keys through the API on %s', (driver) => {
  let t: TestApp;
  let two: FastifyInstance;
  let twoClient: TestClient;
  let user: SignedIn;
  beforeAll(async () => {
    t = await createTestApp(driver, { MARKET_DATA: 'sim' });
    two = await buildApp({ config: t.config, db: t.db, driver, mailer: new RecordingMailer(), logger: false, distDir: '/nonexistent' });
    await two.ready();
    twoClient = new TestClient(two, t.config.JWT_SECRET ?? '');
    user = await t.signInAs('user');
  });
  afterAll(async () => {
    await two?.close();
    await t?.close();
  });

  const simCreds = async (exchange: string) => {
    const res = await t.client.post('/v1/api-keys/sim-credentials', { exchange, label: 'api' }, { token: user.accessToken });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<SimCredentials>();
  };

  it('returns a minted key with its secret once (and the passphrase for OKX only); the simulator keeps them sealed', async () => {
    const okx = await simCreds('okx');
    const binance = await simCreds('binance');
    expect(okx.apiKey).toMatch(/^sim-api-[0-9a-f]{8}$/);
    expect(okx.passphrase).toMatch(/^[0-9a-f]{16}$/);
    expect(binance).not.toHaveProperty('passphrase');
    expect(binance.apiSecret).not.toBe(okx.apiSecret);
    expect(binance.apiSecret).not.toBe(createHmac('sha256', 'crypto-terminal').update(binance.apiKey).digest('hex'));
    const rows = await t.db.select().from(simCredentials).where(eq(simCredentials.apiKey, okx.apiKey));
    expect(rows).toHaveLength(1);
    for (const s of [okx.apiSecret, okx.passphrase ?? '']) expect(JSON.stringify(rows)).not.toContain(s);
  });

  it.each(['binance', 'bybit', 'bitmex', 'okx'])('%s: a key minted on instance 1 is accepted by instance 2 and stored sealed in api_keys', async (exchange) => {
    const creds = await simCreds(exchange);
    // Instance 2 checks the key with its own simulator (signed calls in-process) before storing it.
    const res = await twoClient.post('/v1/api-keys', { name: `${exchange} from one`, exchange, network: 'MAINNET', ...creds, keyPassword: KEY_PASSWORD }, { token: user.accessToken });
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, res.json<ApiKey>().id));
    expect(JSON.stringify(row)).not.toContain(creds.apiSecret);
    // A secret derived from the key's name is refused: the exchange says the key/secret is wrong.
    const forged = { ...creds, apiSecret: createHmac('sha256', 'crypto-terminal').update(creds.apiKey).digest('hex') };
    const refused = await t.client.post('/v1/api-keys', { name: `${exchange} forged`, exchange, network: 'MAINNET', ...forged, keyPassword: KEY_PASSWORD }, { token: user.accessToken });
    expect(refused.statusCode, refused.body).toBe(400);
  });
});
