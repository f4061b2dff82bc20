import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../../test/helper';

describe.each(TEST_DRIVERS)('/v1/maintenance on %s', (driver) => {
  let t: TestApp;
  let admin: SignedIn;
  let user: SignedIn;
  beforeAll(async () => {
    t = await createTestApp(driver);
    admin = await t.signInAs('admin');
    user = await t.signInAs('user');
  });
  afterAll(() => t.close());

  it('starts without a message, readable by anyone', async () => {
    const res = await t.client.get('/v1/maintenance');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: null });
  });

  it('admin sets a message (trimmed) everyone then reads; an empty string clears it', async () => {
    const set = await t.client.post('/v1/maintenance', { message: '  Exchange upgrade at 14:00 UTC ' }, { token: admin.accessToken });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ message: 'Exchange upgrade at 14:00 UTC' });
    expect((await t.client.get('/v1/maintenance')).json()).toEqual({ message: 'Exchange upgrade at 14:00 UTC' });
    const cleared = await t.client.post('/v1/maintenance', { message: '' }, { token: admin.accessToken });
    expect(cleared.json()).toEqual({ message: null });
    expect((await t.client.get('/v1/maintenance')).json()).toEqual({ message: null });
  });

  it('answers 403 to non-admins, 401 signed out, 400 naming the field', async () => {
    const forbidden = await t.client.post('/v1/maintenance', { message: 'hi' }, { token: user.accessToken });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({ message: 'This needs the admin role' });
    expect((await t.client.post('/v1/maintenance', { message: 'hi' })).statusCode).toBe(401);
    const long = await t.client.post('/v1/maintenance', { message: 'x'.repeat(501) }, { token: admin.accessToken });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({ message: 'Invalid message: Message must be at most 500 characters', fields: { message: 'Message must be at most 500 characters' } });
    const missing = await t.client.post('/v1/maintenance', {}, { token: admin.accessToken });
    expect(Object.keys(missing.json().fields)).toEqual(['message']);
    expect((await t.client.get('/v1/maintenance')).json()).toEqual({ message: null });
  });

  it('answers a JSON 404 for unknown API paths', async () => {
    const res = await t.client.get('/v1/maintenance/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found: GET /v1/maintenance/nope' });
  });
});
