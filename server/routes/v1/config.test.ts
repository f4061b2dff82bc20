import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appConfigSchema } from '../../../src/api/contracts/config';
import { LIVE_ENDPOINTS } from '../../exchanges/endpoints';
import { createTestApp, TEST_DRIVERS, type TestApp } from '../../test/helper';

describe.each(TEST_DRIVERS)('GET /v1/config on %s', (driver) => {
  let live: TestApp;
  let sim: TestApp;
  beforeAll(async () => {
    live = await createTestApp(driver, { SENTRY_DSN: 'https://abc@o1.ingest.sentry.io/42' }, { version: '1.2.3+abc' });
    sim = await createTestApp(driver, { MARKET_DATA: 'sim', PRODUCT_NAME: 'Desk', SMTP_URL: 'smtp://mail.example:25' });
  });
  afterAll(async () => {
    await live.close();
    await sim.close();
  });

  it('is public and tells the SPA product, mode, version, Sentry DSN and live exchange hosts', async () => {
    const res = await live.client.get('/v1/config', { xsrf: false });
    expect(res.statusCode).toBe(200);
    const body = appConfigSchema.parse(res.json());
    expect(body).toEqual({
      productName: 'Crypto Terminal',
      marketData: 'live',
      version: '1.2.3+abc',
      sentryDsn: 'https://abc@o1.ingest.sentry.io/42',
      mail: false,
      custody: true,
      exchanges: LIVE_ENDPOINTS,
    });
  });

  it('without SERVER_SECRET (production without it in the environment) says so, and no key can be put in custody', async () => {
    const bare = await createTestApp(driver, { MARKET_DATA: 'sim', SERVER_SECRET: undefined });
    try {
      expect((await bare.client.get('/v1/config')).json()).toMatchObject({ custody: false });
      const user = await bare.signInAs('user');
      const creds = (await bare.client.post('/v1/api-keys/sim-credentials', { exchange: 'binance' }, { token: user.accessToken })).json<Record<string, string>>();
      const key = (await bare.client.post('/v1/api-keys', { name: 'k', exchange: 'binance', network: 'MAINNET', ...creds, keyPassword: 'key-password-1' }, { token: user.accessToken })).json<{ id: string }>();
      const custody = await bare.client.put(`/v1/api-keys/${key.id}/server-custody`, undefined, { token: user.accessToken });
      expect(custody.statusCode).toBe(409);
      expect(custody.json<{ message: string }>().message).toMatch(/has not set SERVER_SECRET/);
    } finally {
      await bare.close();
    }
  });

  it('points every exchange at /sim/<exchange> in simulator mode', async () => {
    const body = (await sim.client.get('/v1/config')).json();
    expect(body.productName).toBe('Desk');
    expect(body.marketData).toBe('sim');
    expect(body.sentryDsn).toBeNull();
    expect(body.mail).toBe(true); // SMTP_URL is set: alert e-mails can be turned on
    expect(body.exchanges.bitmex).toEqual({ rest: '/sim/bitmex', restTestnet: '/sim/bitmex', ws: '/sim/bitmex', wsTestnet: '/sim/bitmex' });
    expect(Object.keys(body.exchanges).sort()).toEqual(['binance', 'bitmex', 'bybit', 'okx']);
  });
});

describe.each(TEST_DRIVERS)('simulator mounting on %s', (driver) => {
  let live: TestApp;
  let sim: TestApp;
  beforeAll(async () => {
    live = await createTestApp(driver);
    sim = await createTestApp(driver, { MARKET_DATA: 'sim' });
  });
  afterAll(async () => {
    await live.close();
    await sim.close();
  });

  it('serves /sim only in simulator mode: live mode never answers with simulated data', async () => {
    const url = '/sim/binance/fapi/v1/klines?symbol=BTCUSDT&interval=1m&limit=3';
    const simRes = await sim.client.get(url, { xsrf: false });
    expect(simRes.statusCode).toBe(200);
    expect(simRes.json()).toHaveLength(3);
    const liveRes = await live.client.get(url);
    expect(liveRes.statusCode).toBe(404);
    expect(liveRes.json().message).toMatch(/^Not found/);
  });
});
