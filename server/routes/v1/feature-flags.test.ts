import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURE_FLAG_DEFAULTS, FEATURE_FLAG_KEYS, type FeatureFlag } from '../../../src/api/contracts/feature-flags';
import { seedFeatureFlags } from '../../services/feature-flags';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../../test/helper';

const MISSING_ID = '00000000-0000-4000-8000-000000000000';

describe.each(TEST_DRIVERS)('/v1/feature-flags on %s', (driver) => {
  let t: TestApp;
  let admin: SignedIn;
  let user: SignedIn;
  beforeAll(async () => {
    t = await createTestApp(driver);
    admin = await t.signInAs('admin');
    user = await t.signInAs('user');
  });
  afterAll(() => t.close());

  const list = async () => (await t.client.get('/v1/feature-flags', { token: admin.accessToken })).json() as FeatureFlag[];
  const byName = async (name: string) => (await list()).find((f) => f.name === name) as FeatureFlag;

  it('GET /json is public and holds all 17 SPEC keys with their defaults (only the banner on)', async () => {
    const res = await t.client.get('/v1/feature-flags/json');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual(FEATURE_FLAG_DEFAULTS);
    expect(Object.keys(res.json())).toHaveLength(17);
    expect(Object.entries(res.json()).filter(([, on]) => on).map(([k]) => k)).toEqual(['FF_MAINTENANCE_BANNER']);
  });

  it('GET lists the seeded flags to any signed-in user; seeding again changes nothing', async () => {
    const flags = (await t.client.get('/v1/feature-flags', { token: user.accessToken })).json() as FeatureFlag[];
    expect(flags.map((f) => f.name).sort()).toEqual([...FEATURE_FLAG_KEYS].sort());
    await t.setFlag('FF_ENABLE_ALERTS', true);
    await seedFeatureFlags(t.db);
    expect((await byName('FF_ENABLE_ALERTS')).enabled).toBe(true);
    expect(await list()).toHaveLength(flags.length);
    await t.setFlag('FF_ENABLE_ALERTS', false);
    expect((await t.client.get('/v1/feature-flags')).statusCode).toBe(401);
  });

  it('admin creates, updates and deletes a flag, and the map follows', async () => {
    const created = await t.client.post('/v1/feature-flags', { name: 'FF_TEST_CUSTOM', enabled: true }, { token: admin.accessToken });
    expect(created.statusCode).toBe(201);
    const flag = created.json() as FeatureFlag;
    expect(flag).toEqual({ id: expect.any(String), name: 'FF_TEST_CUSTOM', enabled: true });
    expect((await t.client.get('/v1/feature-flags/json')).json().FF_TEST_CUSTOM).toBe(true);

    const updated = await t.client.put(`/v1/feature-flags/${flag.id}`, { ...flag, name: 'FF_TEST_RENAMED', enabled: false }, { token: admin.accessToken });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toEqual({ id: flag.id, name: 'FF_TEST_RENAMED', enabled: false });
    const map = (await t.client.get('/v1/feature-flags/json')).json();
    expect(map.FF_TEST_RENAMED).toBe(false);
    expect(map).not.toHaveProperty('FF_TEST_CUSTOM');

    const deleted = await t.client.delete(`/v1/feature-flags/${flag.id}`, { token: admin.accessToken });
    expect(deleted.statusCode).toBe(204);
    expect((await t.client.get('/v1/feature-flags/json')).json()).not.toHaveProperty('FF_TEST_RENAMED');
    expect((await t.client.delete(`/v1/feature-flags/${flag.id}`, { token: admin.accessToken })).statusCode).toBe(404);
  });

  it('toggling a built-in flag changes the map and server behaviour (registration)', async () => {
    const reg = await byName('FF_ENABLE_REGISTRATION');
    const on = await t.client.put(`/v1/feature-flags/${reg.id}`, { ...reg, enabled: true }, { token: admin.accessToken });
    expect(on.statusCode).toBe(200);
    expect((await t.client.get('/v1/feature-flags/json')).json().FF_ENABLE_REGISTRATION).toBe(true);
    expect((await t.client.post('/v1/auth/signup', { email: `ff-${Date.now()}@example.com`, password: 'password-1' })).statusCode).toBe(201);
    await t.client.put(`/v1/feature-flags/${reg.id}`, { ...reg, enabled: false }, { token: admin.accessToken });
    expect((await t.client.post('/v1/auth/signup', { email: `ff2-${Date.now()}@example.com`, password: 'password-1' })).statusCode).toBe(403);
  });

  it('answers 409 for a duplicate name, renaming or deleting a built-in flag', async () => {
    const dup = await t.client.post('/v1/feature-flags', { name: 'FF_ENABLE_ALERTS', enabled: true }, { token: admin.accessToken });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ message: 'A feature flag named FF_ENABLE_ALERTS already exists', fields: { name: 'This name is already taken' } });
    const alerts = await byName('FF_ENABLE_ALERTS');
    const rename = await t.client.put(`/v1/feature-flags/${alerts.id}`, { name: 'FF_OTHER', enabled: true }, { token: admin.accessToken });
    expect(rename.statusCode).toBe(409);
    const del = await t.client.delete(`/v1/feature-flags/${alerts.id}`, { token: admin.accessToken });
    expect(del.statusCode).toBe(409);
    expect(del.json().message).toMatch(/built-in flag and cannot be deleted/);
  });

  it('answers 403 to non-admins for every change, 401 signed out', async () => {
    const flag = await byName('FF_ENABLE_ALERTS');
    const attempts = [
      t.client.post('/v1/feature-flags', { name: 'FF_X', enabled: true }, { token: user.accessToken }),
      t.client.put(`/v1/feature-flags/${flag.id}`, { ...flag, enabled: true }, { token: user.accessToken }),
      t.client.delete(`/v1/feature-flags/${flag.id}`, { token: user.accessToken }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'This needs the admin role' });
    }
    expect((await t.client.post('/v1/feature-flags', { name: 'FF_X', enabled: true })).statusCode).toBe(401);
    expect((await byName('FF_ENABLE_ALERTS')).enabled).toBe(false);
  });

  it('answers 400 naming the field and 404 for an unknown id', async () => {
    const badName = await t.client.post('/v1/feature-flags', { name: 'lower-case', enabled: true }, { token: admin.accessToken });
    expect(badName.statusCode).toBe(400);
    expect(badName.json().fields).toEqual({ name: 'Use upper-case letters, digits and underscores, e.g. FF_MY_FEATURE' });
    const noEnabled = await t.client.post('/v1/feature-flags', { name: 'FF_OK' }, { token: admin.accessToken });
    expect(Object.keys(noEnabled.json().fields)).toEqual(['enabled']);
    const flag = await byName('FF_ENABLE_ALERTS');
    const mismatch = await t.client.put(`/v1/feature-flags/${flag.id}`, { ...flag, id: MISSING_ID }, { token: admin.accessToken });
    expect(mismatch.statusCode).toBe(400);
    expect(Object.keys(mismatch.json().fields)).toEqual(['id']);
    const missing = await t.client.put(`/v1/feature-flags/${MISSING_ID}`, { name: 'FF_X', enabled: true }, { token: admin.accessToken });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Feature flag not found' });
  });
});
