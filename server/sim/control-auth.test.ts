import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimCredentials } from '../../src/api/contracts/api-keys';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../test/helper';
import { SIM_CONTROL_HEADER } from './control-auth';

describe.each(TEST_DRIVERS)('/sim/_control inside the product on %s', (driver) => {
  let t: TestApp;
  let admin: SignedIn;
  let user: SignedIn;
  beforeAll(async () => {
    t = await createTestApp(driver, { MARKET_DATA: 'sim' });
    admin = await t.signInAs('admin');
    user = await t.signInAs('user');
  });
  afterAll(() => t?.close());

  it.each([
    ['POST', '/sim/_control/drop-sockets'],
    ['GET', '/sim/_control/drop-sockets'],
    ['GET', '/sim/_control/state'],
  ] as const)('%s %s needs an admin token: 401 without, 403 for a user, 200 for an admin', async (method, url) => {
    expect((await t.client.request(method, url)).statusCode).toBe(401);
    expect((await t.client.request(method, url, undefined, { headers: { [SIM_CONTROL_HEADER]: 'guess' } })).statusCode).toBe(401);
    const asUser = await t.client.request(method, url, undefined, { token: user.accessToken });
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json()).toEqual({ message: 'This needs the admin role' });
    expect((await t.client.request(method, url, undefined, { token: admin.accessToken })).statusCode).toBe(200);
  });

  it('still lets the server read the simulator clock for its own key checks', async () => {
    const creds = (await t.client.post('/v1/api-keys/sim-credentials', { exchange: 'bybit' }, { token: user.accessToken })).json<SimCredentials>();
    const res = await t.client.post('/v1/api-keys', { name: 'k', exchange: 'bybit', network: 'TESTNET', ...creds, keyPassword: 'kp-123456' }, { token: user.accessToken });
    expect(res.statusCode).toBe(201);
  });

  it('leaves the exchanges\' own simulated endpoints open, as the real ones are', async () => {
    expect((await t.client.get('/sim/binance/fapi/v1/time')).statusCode).toBe(200);
  });

  it("neither issues nor checks the app's XSRF cookie on the exchanges' simulated endpoints (their callers are exchange clients)", async () => {
    const xsrfCookie = (headers: Record<string, unknown>) => [headers['set-cookie'] ?? []].flat().some((c) => String(c).startsWith('XSRF-TOKEN='));
    const sim = await t.app.inject({ method: 'GET', url: '/sim/binance/fapi/v1/time' });
    expect(sim.statusCode).toBe(200);
    expect(xsrfCookie(sim.headers)).toBe(false);
    expect(xsrfCookie((await t.app.inject({ method: 'GET', url: '/v1/config' })).headers)).toBe(true);
  });
});
