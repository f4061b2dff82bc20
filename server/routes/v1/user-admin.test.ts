import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../../test/helper';

const MISSING_ID = '00000000-0000-4000-8000-000000000000';

describe.each(TEST_DRIVERS)('POST /v1/users/{id}/reset-password on %s', (driver) => {
  let t: TestApp;
  let admin: SignedIn;
  beforeAll(async () => {
    t = await createTestApp(driver);
    admin = await t.signInAs('admin');
  });
  afterAll(() => t.close());

  const reset = (id: string, body: unknown, token = admin.accessToken) => t.client.post(`/v1/users/${id}/reset-password`, body, { token });

  it('method link e-mails a reset link and keeps the current password', async () => {
    const user = await t.signInAs('user');
    const res = await reset(user.id, { method: 'link' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: `A password reset link was sent to ${user.email}`, temporaryPassword: null });
    const mail = await t.mailer.waitFor(user.email);
    expect(mail.text).toMatch(/\/change-password\?token=/);
    expect((await t.client.post('/v1/auth/signin', { email: user.email, password: user.password })).statusCode).toBe(200);
  });

  it('method temporary-password sets a new password shown once and ends every session', async () => {
    const user = await t.signInAs('user');
    const res = await reset(user.id, { method: 'temporary-password' });
    expect(res.statusCode).toBe(200);
    const { temporaryPassword, message } = res.json() as { temporaryPassword: string; message: string };
    expect(message).toBe(`The password of ${user.email} was reset and every session ended`);
    expect(temporaryPassword).toMatch(/^[A-Z2-9]{16}$/);
    expect((await t.client.get('/v1/users/me', { token: user.accessToken })).statusCode).toBe(401);
    expect((await t.client.post('/v1/auth/signin', { email: user.email, password: user.password })).statusCode).toBe(401);
    expect((await t.client.post('/v1/auth/signin', { email: user.email, password: temporaryPassword })).statusCode).toBe(200);
  });

  it('answers 400 naming the field, 404 for an unknown user', async () => {
    const bad = await reset(admin.id, { method: 'sms' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields)).toEqual(['method']);
    expect((await reset('nope', { method: 'link' })).json().fields).toHaveProperty('id');
    const missing = await reset(MISSING_ID, { method: 'link' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'User not found' });
  });

  it('answers 401 without a token and 403 to non-admins', async () => {
    const user = await t.signInAs('referrer');
    expect((await t.client.post(`/v1/users/${user.id}/reset-password`, { method: 'link' })).statusCode).toBe(401);
    expect((await reset(user.id, { method: 'link' }, user.accessToken)).statusCode).toBe(403);
  });
});
