import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Invitation, InvitationsPage } from '../../../src/api/contracts/invitations';
import { createInvitation } from '../../services/invitations';
import { createTestApp, TEST_DRIVERS, uniqueEmail, type SignedIn, type TestApp } from '../../test/helper';

const MISSING_ID = '00000000-0000-4000-8000-000000000000';
const inAWeek = () => new Date(Date.now() + 7 * 24 * 3600_000).toISOString();

describe.each(TEST_DRIVERS)('/v1/invitations on %s', (driver) => {
  let t: TestApp;
  let admin: SignedIn;
  let user: SignedIn;
  beforeAll(async () => {
    t = await createTestApp(driver);
    admin = await t.signInAs('admin');
    user = await t.signInAs('user');
    await t.setFlag('FF_ENABLE_REGISTRATION', false);
  });
  afterAll(() => t.close());

  const generate = (body: unknown) => t.client.post('/v1/invitations', body, { token: admin.accessToken });
  const list = async (query: Record<string, string> = {}) =>
    (await t.client.get('/v1/invitations', { token: admin.accessToken, query })).json() as InvitationsPage;

  it('generates count codes with expiry, e-mail and role, listed newest first as unused', async () => {
    const expiresAt = inAWeek();
    const res = await generate({ count: 3, expiresAt, email: 'Invited@Example.com', role: 'referrer' });
    expect(res.statusCode).toBe(201);
    const { data } = res.json() as { data: Invitation[] };
    expect(data).toHaveLength(3);
    expect(new Set(data.map((i) => i.code)).size).toBe(3);
    for (const inv of data) {
      expect(inv).toMatchObject({ maxUses: 1, uses: 0, email: 'invited@example.com', role: 'referrer', status: 'unused', usedBy: [], revokedAt: null });
      expect(new Date(inv.expiresAt ?? '').getTime()).toBe(new Date(expiresAt).getTime());
      expect(inv.code).toMatch(/^[A-Z2-9]{10}$/);
    }
    const listed = await list();
    expect(listed.data.slice(0, 3).map((i) => i.id).sort()).toEqual(data.map((i) => i.id).sort());
  });

  it('a sign-up with the code while registration is off marks it used by that account', async () => {
    const [inv] = (await generate({ count: 1 })).json().data as Invitation[];
    const email = uniqueEmail('invited');
    expect((await t.client.post('/v1/auth/signup', { email, password: 'password-1' })).statusCode).toBe(403);
    const signup = await t.client.post('/v1/auth/signup', { email, password: 'password-1', inviteCode: inv.code.toLowerCase() });
    expect(signup.statusCode).toBe(201);
    const used = (await list({ status: 'used' })).data.find((i) => i.id === inv.id);
    expect(used).toMatchObject({ status: 'used', uses: 1, usedBy: [{ email, id: expect.any(String) }] });
    expect((await t.client.post('/v1/auth/signup', { email: uniqueEmail('again'), password: 'password-1', inviteCode: inv.code })).statusCode).toBe(403);
  });

  it('reports expired codes and filters by status', async () => {
    const expired = await createInvitation(t.db, { expiresAt: new Date(Date.now() - 1000) });
    const page = await list({ status: 'expired' });
    expect(page.data.map((i) => i.id)).toContain(expired.id);
    expect(page.data.every((i) => i.status === 'expired')).toBe(true);
    expect((await list({ status: 'unused' })).data.every((i) => i.status === 'unused')).toBe(true);
  });

  it('pages with cursors both ways', async () => {
    await generate({ count: 4 });
    const first = await list({ limit: '2' });
    expect(first.data).toHaveLength(2);
    expect(first.meta.previousCursor).toBeNull();
    const second = await list({ limit: '2', cursor: first.meta.nextCursor ?? '' });
    expect(second.data.map((i) => i.id)).not.toContain(first.data[0].id);
    const back = await list({ limit: '2', cursor: second.meta.previousCursor ?? '' });
    expect(back.data.map((i) => i.id)).toEqual(first.data.map((i) => i.id));
    const bad = await t.client.get('/v1/invitations', { token: admin.accessToken, query: { cursor: 'nonsense' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toHaveProperty('cursor');
  });

  it('revokes a code: sign-up with it fails; revoking again is 409, an unknown id 404', async () => {
    const [inv] = (await generate({ count: 1 })).json().data as Invitation[];
    const res = await t.client.delete(`/v1/invitations/${inv.id}`, { token: admin.accessToken });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: inv.id, status: 'revoked', revokedAt: expect.any(String) });
    expect((await t.client.post('/v1/auth/signup', { email: uniqueEmail('revoked'), password: 'password-1', inviteCode: inv.code })).statusCode).toBe(403);
    expect((await t.client.delete(`/v1/invitations/${inv.id}`, { token: admin.accessToken })).statusCode).toBe(409);
    const missing = await t.client.delete(`/v1/invitations/${MISSING_ID}`, { token: admin.accessToken });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Invitation not found' });
  });

  it('answers 400 naming the field', async () => {
    const zero = await generate({ count: 0 });
    expect(zero.statusCode).toBe(400);
    expect(zero.json().fields).toEqual({ count: 'Generate at least 1 code' });
    const past = await generate({ count: 1, expiresAt: new Date(Date.now() - 60_000).toISOString() });
    expect(past.statusCode).toBe(400);
    expect(past.json().fields).toEqual({ expiresAt: 'The expiry must be in the future' });
    const email = await generate({ count: 1, email: 'not-an-email' });
    expect(email.json().fields).toHaveProperty('email');
    const role = await generate({ count: 1, role: 'god' });
    expect(role.json().fields).toHaveProperty('role');
    expect((await t.client.delete('/v1/invitations/not-a-uuid', { token: admin.accessToken })).json().fields).toHaveProperty('id');
  });

  it('answers 401 without a token and 403 to non-admins', async () => {
    expect((await t.client.get('/v1/invitations')).statusCode).toBe(401);
    expect((await t.client.post('/v1/invitations', { count: 1 })).statusCode).toBe(401);
    expect((await t.client.get('/v1/invitations', { token: t.expiredAccessToken(admin) })).json()).toEqual({ message: 'Invalid access token' });
    expect((await t.client.get('/v1/invitations', { token: user.accessToken })).statusCode).toBe(403);
    expect((await t.client.post('/v1/invitations', { count: 1 }, { token: user.accessToken })).statusCode).toBe(403);
    expect((await t.client.delete(`/v1/invitations/${MISSING_ID}`, { token: user.accessToken })).statusCode).toBe(403);
  });
});
