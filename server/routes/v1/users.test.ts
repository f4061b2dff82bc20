import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User, UsersPage } from '../../../src/api/contracts/users';
import { INVALID_ACCESS_TOKEN } from '../../lib/http-error';
import { AUTH_REQUIRED } from '../../plugins/authenticate';
import { createUser } from '../../services/users';
import { createTestApp, TEST_DRIVERS, uniqueEmail, type SignedIn, type TestApp } from '../../test/helper';

const MISSING_ID = '00000000-0000-4000-8000-000000000000';

describe.each(TEST_DRIVERS)('/v1/users on %s', (driver) => {
  let t: TestApp;
  let admin: SignedIn;
  let user: SignedIn;
  beforeAll(async () => {
    t = await createTestApp(driver);
    admin = await t.signInAs('admin');
    user = await t.signInAs('user');
  });
  afterAll(() => t.close());

  describe('GET /v1/users/me', () => {
    it('answers the signed-in user without secrets', async () => {
      const res = await t.client.get('/v1/users/me', { token: user.accessToken });
      expect(res.statusCode).toBe(200);
      const body = res.json() as User;
      expect(body).toEqual({ id: user.id, email: user.email, role: 'user', referralCode: expect.any(String), referrerId: null, createdAt: expect.any(String) });
      expect(res.body).not.toMatch(/password|scrypt/i);
    });

    it('answers exactly 401 Invalid access token for a bad, tampered or expired token', async () => {
      const [head, payload] = user.accessToken.split('.');
      const forged = `${head}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), role: 'admin' })).toString('base64url')}.${user.accessToken.split('.')[2]}`;
      for (const token of ['garbage', forged, t.expiredAccessToken(user), `${head}.${payload}.`]) {
        const res = await t.client.get('/v1/users/me', { token });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ message: INVALID_ACCESS_TOKEN });
      }
    });

    it('answers 401 asking to sign in when no token is sent', async () => {
      const res = await t.client.get('/v1/users/me');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: AUTH_REQUIRED });
    });
  });

  describe('GET /v1/users/{id}', () => {
    it('lets admins read anyone and users themselves', async () => {
      expect((await t.client.get(`/v1/users/${user.id}`, { token: admin.accessToken })).json().email).toBe(user.email);
      expect((await t.client.get(`/v1/users/${user.id}`, { token: user.accessToken })).statusCode).toBe(200);
    });

    it('answers 403 to a user reading someone else, 404 for an unknown id, 400 for a malformed one, 401 signed out', async () => {
      const other = await t.client.get(`/v1/users/${admin.id}`, { token: user.accessToken });
      expect(other.statusCode).toBe(403);
      expect(other.json()).toEqual({ message: 'You may only view your own account' });
      const missing = await t.client.get(`/v1/users/${MISSING_ID}`, { token: admin.accessToken });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ message: 'User not found' });
      const malformed = await t.client.get('/v1/users/not-a-uuid', { token: admin.accessToken });
      expect(malformed.statusCode).toBe(400);
      expect(Object.keys(malformed.json().fields)).toEqual(['id']);
      expect((await t.client.get(`/v1/users/${user.id}`)).statusCode).toBe(401);
    });
  });

  describe('GET /v1/users (admin, cursor paging)', () => {
    it('pages forwards and backwards through a stable order without gaps or repeats', async () => {
      const tag = `pager${Date.now().toString(36)}`;
      for (let i = 0; i < 7; i++) await createUser(t.db, { email: `${tag}-${i}@paging.example.com`, password: 'password-1' });
      const list = (q: Record<string, string>) => t.client.get('/v1/users', { token: admin.accessToken, query: { query: tag, limit: '3', ...q } });

      const pages: UsersPage[] = [];
      let res = await list({});
      expect(res.statusCode).toBe(200);
      pages.push(res.json());
      while (pages[pages.length - 1].meta.nextCursor) {
        res = await list({ cursor: pages[pages.length - 1].meta.nextCursor as string });
        pages.push(res.json());
      }
      expect(pages.map((p) => p.data.length)).toEqual([3, 3, 1]);
      expect(pages[0].meta.previousCursor).toBeNull();
      const emails = pages.flatMap((p) => p.data.map((u) => u.email));
      expect(new Set(emails).size).toBe(7);
      // Newest first.
      expect(emails).toEqual([6, 5, 4, 3, 2, 1, 0].map((i) => `${tag}-${i}@paging.example.com`));

      const back = (await list({ cursor: pages[2].meta.previousCursor as string })).json() as UsersPage;
      expect(back.data.map((u) => u.email)).toEqual(pages[1].data.map((u) => u.email));
      const first = (await list({ cursor: back.meta.previousCursor as string })).json() as UsersPage;
      expect(first.data.map((u) => u.email)).toEqual(pages[0].data.map((u) => u.email));
      expect(first.meta.previousCursor).toBeNull();
      expect(first.meta.nextCursor).not.toBeNull();
    });

    it('searches emails case-insensitively, treating % and _ literally, and filters by role', async () => {
      const tag = `Find${Date.now().toString(36)}`;
      await createUser(t.db, { email: `${tag.toLowerCase()}_x@search.example.com`, password: 'password-1', role: 'referrer' });
      await createUser(t.db, { email: `${tag.toLowerCase()}yx@search.example.com`, password: 'password-1' });
      const byQuery = (await t.client.get('/v1/users', { token: admin.accessToken, query: { query: `${tag.toUpperCase()}_` } })).json() as UsersPage;
      expect(byQuery.data.map((u) => u.email)).toEqual([`${tag.toLowerCase()}_x@search.example.com`]);
      const byRole = (await t.client.get('/v1/users', { token: admin.accessToken, query: { query: tag, role: 'referrer' } })).json() as UsersPage;
      expect(byRole.data).toHaveLength(1);
      expect(byRole.meta).toEqual({ nextCursor: null, previousCursor: null });
    });

    it('answers 403 to non-admins, 401 signed out, 400 naming the field for bad paging input', async () => {
      const res = await t.client.get('/v1/users', { token: user.accessToken });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'This needs the admin role' });
      expect((await t.client.get('/v1/users')).statusCode).toBe(401);
      const limit = await t.client.get('/v1/users', { token: admin.accessToken, query: { limit: '0' } });
      expect(limit.statusCode).toBe(400);
      expect(Object.keys(limit.json().fields)).toEqual(['limit']);
      const cursor = await t.client.get('/v1/users', { token: admin.accessToken, query: { cursor: 'bogus' } });
      expect(cursor.statusCode).toBe(400);
      expect(cursor.json().fields).toEqual({ cursor: 'Invalid cursor' });
    });
  });

  describe('PATCH /v1/users/{id}', () => {
    it('lets a user change their own password and stay signed in; other sessions end', async () => {
      const me = await t.signInAs('user');
      const otherSession = (await t.client.post('/v1/auth/signin', { email: me.email, password: me.password })).json() as { accessToken: string; refreshToken: string };
      const res = await t.client.patch(`/v1/users/${me.id}`, { password: 'changed-password' }, { token: me.accessToken });
      expect(res.statusCode).toBe(200);
      expect(res.json().id).toBe(me.id);
      expect((await t.client.get('/v1/users/me', { token: me.accessToken })).statusCode).toBe(200);
      expect((await t.client.post('/v1/auth/refresh', undefined, { token: me.refreshToken })).statusCode).toBe(200);
      expect((await t.client.get('/v1/users/me', { token: otherSession.accessToken })).statusCode).toBe(401);
      expect((await t.client.post('/v1/auth/signin', { email: me.email, password: 'changed-password' })).statusCode).toBe(200);
    });

    it('forbids a user changing role or email, or anyone else', async () => {
      const me = await t.signInAs('user');
      const role = await t.client.patch(`/v1/users/${me.id}`, { role: 'admin' }, { token: me.accessToken });
      expect(role.statusCode).toBe(403);
      expect(role.json()).toEqual({ message: 'Only an admin may change role' });
      const other = await t.client.patch(`/v1/users/${user.id}`, { password: 'password-123' }, { token: me.accessToken });
      expect(other.statusCode).toBe(403);
    });

    it('lets an admin change email, role and password; the user’s sessions end on a password change', async () => {
      const target = await t.signInAs('user');
      const email = uniqueEmail('renamed');
      const res = await t.client.patch(`/v1/users/${target.id}`, { email, role: 'referrer' }, { token: admin.accessToken });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ email, role: 'referrer' });
      const pw = await t.client.patch(`/v1/users/${target.id}`, { password: 'set-by-admin' }, { token: admin.accessToken });
      expect(pw.statusCode).toBe(200);
      expect((await t.client.get('/v1/users/me', { token: target.accessToken })).json()).toEqual({ message: INVALID_ACCESS_TOKEN });
      expect((await t.client.post('/v1/auth/signin', { email, password: 'set-by-admin' })).statusCode).toBe(200);
    });

    it('answers 409 for a taken email and for demoting the last admin', async () => {
      const taken = await t.client.patch(`/v1/users/${user.id}`, { email: admin.email }, { token: admin.accessToken });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().fields).toEqual({ email: 'Email already in use' });

      const fresh = await createTestApp(driver);
      try {
        const onlyAdmin = await fresh.signInAs('admin');
        const demote = await fresh.client.patch(`/v1/users/${onlyAdmin.id}`, { role: 'user' }, { token: onlyAdmin.accessToken });
        expect(demote.statusCode).toBe(409);
        expect(demote.json().message).toMatch(/last admin/);
      } finally {
        await fresh.close();
      }
    });

    it('answers 400 naming the field, 400 for an empty body, 404 unknown user, 401 signed out', async () => {
      const bad = await t.client.patch(`/v1/users/${user.id}`, { role: 'superuser' }, { token: admin.accessToken });
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json().fields)).toEqual(['role']);
      const empty = await t.client.patch(`/v1/users/${user.id}`, {}, { token: admin.accessToken });
      expect(empty.statusCode).toBe(400);
      expect(empty.json()).toEqual({ message: 'Nothing to update' });
      const missing = await t.client.patch(`/v1/users/${MISSING_ID}`, { role: 'user' }, { token: admin.accessToken });
      expect(missing.statusCode).toBe(404);
      expect((await t.client.patch(`/v1/users/${user.id}`, { password: 'password-123' })).statusCode).toBe(401);
    });
  });
});
