import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tokens } from '../../../src/api/contracts/auth';
import { INVALID_ACCESS_TOKEN } from '../../lib/http-error';
import { MESSAGES } from '../../services/auth';
import { createInvitation, INVALID_INVITATION } from '../../services/invitations';
import { createTestApp, TEST_DRIVERS, uniqueEmail, type TestApp } from '../../test/helper';

describe.each(TEST_DRIVERS)('/v1/auth on %s', (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(driver);
  });
  afterAll(() => t.close());

  const me = (token: string) => t.client.get('/v1/users/me', { token });

  describe('signup', () => {
    it('is closed while FF_ENABLE_REGISTRATION is off (the default)', async () => {
      const res = await t.client.post('/v1/auth/signup', { email: uniqueEmail(), password: 'password-1' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: MESSAGES.registrationClosed });
    });

    it('creates an account and signs it in while registration is open', async () => {
      await t.setFlag('FF_ENABLE_REGISTRATION', true);
      try {
        const email = uniqueEmail('Mixed.Case');
        const res = await t.client.post('/v1/auth/signup', { email: email.toUpperCase(), password: 'password-1' });
        expect(res.statusCode).toBe(201);
        const tokens = res.json() as Tokens;
        const profile = await me(tokens.accessToken);
        expect(profile.statusCode).toBe(200);
        expect(profile.json()).toMatchObject({ email: email.toLowerCase(), role: 'user', referrerId: null });
        expect(profile.json().referralCode).toMatch(/^[A-Z2-9]{8}$/);

        const again = await t.client.post('/v1/auth/signup', { email, password: 'password-2' });
        expect(again.statusCode).toBe(409);
        expect(again.json().message).toBe('An account with this email already exists');
      } finally {
        await t.setFlag('FF_ENABLE_REGISTRATION', false);
      }
    });

    it('answers 400 naming the field for bad input', async () => {
      const short = await t.client.post('/v1/auth/signup', { email: uniqueEmail(), password: 'short' });
      expect(short.statusCode).toBe(400);
      expect(short.json()).toEqual({
        message: 'Invalid password: Password must be at least 8 characters',
        fields: { password: 'Password must be at least 8 characters' },
      });
      const email = await t.client.post('/v1/auth/signup', { email: 'not-an-email', password: 'password-1' });
      expect(email.statusCode).toBe(400);
      expect(email.json().fields).toEqual({ email: 'Enter a valid email address' });
      const extra = await t.client.post('/v1/auth/signup', 'not json', { headers: { 'content-type': 'application/json' } });
      expect(extra.statusCode).toBe(400);
      expect(extra.json()).toEqual({ message: expect.any(String) });
    });

    it('lets an invitation in while registration is closed, one use per code, with its role', async () => {
      const invitation = await createInvitation(t.db, { role: 'referrer' });
      const email = uniqueEmail('invited');
      const res = await t.client.post('/v1/auth/signup', { email, password: 'password-1', inviteCode: invitation.code.toLowerCase() });
      expect(res.statusCode).toBe(201);
      expect((await me((res.json() as Tokens).accessToken)).json().role).toBe('referrer');

      const reuse = await t.client.post('/v1/auth/signup', { email: uniqueEmail(), password: 'password-1', inviteCode: invitation.code });
      expect(reuse.statusCode).toBe(403);
      expect(reuse.json()).toEqual({ message: INVALID_INVITATION });
    });

    it('rejects expired, revoked-by-email and unknown invitations', async () => {
      const expired = await createInvitation(t.db, { expiresAt: new Date(Date.now() - 1000) });
      const forSomeoneElse = await createInvitation(t.db, { email: 'someone@else.example.com' });
      for (const inviteCode of [expired.code, forSomeoneElse.code, 'NOSUCHCODE']) {
        const res = await t.client.post('/v1/auth/signup', { email: uniqueEmail(), password: 'password-1', inviteCode });
        expect(res.statusCode).toBe(403);
        expect(res.json().message).toBe(INVALID_INVITATION);
      }
    });

    it('never takes more uses than the code has, even when sign-ups race', async () => {
      const invitation = await createInvitation(t.db, { maxUses: 2 });
      const results = await Promise.all(
        Array.from({ length: 5 }, () => t.client.post('/v1/auth/signup', { email: uniqueEmail('race'), password: 'password-1', inviteCode: invitation.code })),
      );
      expect(results.filter((r) => r.statusCode === 201)).toHaveLength(2);
      expect(results.filter((r) => r.statusCode === 403)).toHaveLength(3);
    });

    it('gives the use back when the sign-up fails (email taken)', async () => {
      const existing = await t.signInAs('user');
      const invitation = await createInvitation(t.db);
      const taken = await t.client.post('/v1/auth/signup', { email: existing.email, password: 'password-1', inviteCode: invitation.code });
      expect(taken.statusCode).toBe(409);
      const ok = await t.client.post('/v1/auth/signup', { email: uniqueEmail(), password: 'password-1', inviteCode: invitation.code });
      expect(ok.statusCode).toBe(201);
    });

    it('sets the referrer from a referral code, and rejects an unknown one naming the field', async () => {
      const referrer = await t.signInAs('referrer');
      const code = (await me(referrer.accessToken)).json().referralCode as string;
      const invitation = await createInvitation(t.db, { maxUses: 2 });
      const res = await t.client.post('/v1/auth/signup', { email: uniqueEmail(), password: 'password-1', inviteCode: invitation.code, referralCode: code });
      expect(res.statusCode).toBe(201);
      expect((await me((res.json() as Tokens).accessToken)).json().referrerId).toBe(referrer.id);

      const unknown = await t.client.post('/v1/auth/signup', { email: uniqueEmail(), password: 'password-1', inviteCode: invitation.code, referralCode: 'ZZZZZZZZ' });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().fields).toEqual({ referralCode: 'Unknown referral code' });
    });
  });

  describe('signin', () => {
    it('returns a working token pair for the right password', async () => {
      const user = await t.signInAs('user');
      const res = await t.client.post('/v1/auth/signin', { email: user.email.toUpperCase(), password: user.password });
      expect(res.statusCode).toBe(200);
      expect((await me((res.json() as Tokens).accessToken)).json().id).toBe(user.id);
    });

    it('answers the same 401 for a wrong password and an unknown email', async () => {
      const user = await t.signInAs('user');
      const wrong = await t.client.post('/v1/auth/signin', { email: user.email, password: 'wrong-password' });
      const unknown = await t.client.post('/v1/auth/signin', { email: uniqueEmail('nobody'), password: 'wrong-password' });
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.json()).toEqual({ message: MESSAGES.badCredentials });
      expect(unknown.json()).toEqual(wrong.json());
    });

    it('answers 400 naming the field for a missing password', async () => {
      const res = await t.client.post('/v1/auth/signin', { email: uniqueEmail() });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(['password']);
      expect(res.json().message).toMatch(/^Invalid password/);
    });
  });

  describe('refresh', () => {
    it('rotates: the new pair works, the old refresh token is spent', async () => {
      const user = await t.signInAs('user');
      const res = await t.client.post('/v1/auth/refresh', undefined, { token: user.refreshToken });
      expect(res.statusCode).toBe(200);
      const next = res.json() as Tokens;
      expect(next.refreshToken).not.toBe(user.refreshToken);
      expect((await me(next.accessToken)).statusCode).toBe(200);
      const again = await t.client.post('/v1/auth/refresh', undefined, { token: next.refreshToken });
      expect(again.statusCode).toBe(200);
    });

    it('on reuse of a rotated token revokes the whole sign-in, other sign-ins survive', async () => {
      const user = await t.signInAs('user');
      const otherDevice = (await t.client.post('/v1/auth/signin', { email: user.email, password: user.password })).json() as Tokens;
      const rotated = (await t.client.post('/v1/auth/refresh', undefined, { token: user.refreshToken })).json() as Tokens;

      const reuse = await t.client.post('/v1/auth/refresh', undefined, { token: user.refreshToken });
      expect(reuse.statusCode).toBe(401);
      expect(reuse.json()).toEqual({ message: MESSAGES.refreshReuse });

      // The legitimate holder of the newest token is signed out too: the family is gone.
      const newest = await t.client.post('/v1/auth/refresh', undefined, { token: rotated.refreshToken });
      expect(newest.statusCode).toBe(401);
      const access = await me(rotated.accessToken);
      expect(access.statusCode).toBe(401);
      expect(access.json()).toEqual({ message: INVALID_ACCESS_TOKEN });

      expect((await me(otherDevice.accessToken)).statusCode).toBe(200);
      expect((await t.client.post('/v1/auth/refresh', undefined, { token: otherDevice.refreshToken })).statusCode).toBe(200);
    });

    it('answers 401 without a token or with an unknown one', async () => {
      const none = await t.client.post('/v1/auth/refresh');
      expect(none.statusCode).toBe(401);
      expect(none.json().message).toMatch(/Bearer <refreshToken>/);
      const unknown = await t.client.post('/v1/auth/refresh', undefined, { token: 'not-a-real-token' });
      expect(unknown.statusCode).toBe(401);
      expect(unknown.json()).toEqual({ message: MESSAGES.invalidRefresh });
    });
  });

  describe('signout', () => {
    it('with the access token ends that sign-in (access and refresh) and nothing else', async () => {
      const user = await t.signInAs('user');
      const other = (await t.client.post('/v1/auth/signin', { email: user.email, password: user.password })).json() as Tokens;
      const res = await t.client.post('/v1/auth/signout', undefined, { token: user.accessToken });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: MESSAGES.signedOut });
      expect((await me(user.accessToken)).json()).toEqual({ message: INVALID_ACCESS_TOKEN });
      expect((await t.client.post('/v1/auth/refresh', undefined, { token: user.refreshToken })).statusCode).toBe(401);
      expect((await me(other.accessToken)).statusCode).toBe(200);
    });

    it('with { refreshToken } works even when the access token has expired', async () => {
      const user = await t.signInAs('user');
      const res = await t.client.post('/v1/auth/signout', { refreshToken: user.refreshToken }, { token: t.expiredAccessToken(user) });
      expect(res.statusCode).toBe(200);
      expect((await t.client.post('/v1/auth/refresh', undefined, { token: user.refreshToken })).statusCode).toBe(401);
    });

    it('answers 401 with neither, and for an invalid access token', async () => {
      expect((await t.client.post('/v1/auth/signout')).statusCode).toBe(401);
      const bad = await t.client.post('/v1/auth/signout', undefined, { token: 'garbage' });
      expect(bad.statusCode).toBe(401);
      expect(bad.json()).toEqual({ message: INVALID_ACCESS_TOKEN });
    });
  });

  describe('forgot-password and change-password', () => {
    it('is refused while FF_ENABLE_FORGOT_PASSWORD is off', async () => {
      const res = await t.client.post('/v1/auth/forgot-password', { email: uniqueEmail() });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: MESSAGES.forgotDisabled });
    });

    it('mails a single-use link that sets a new password and ends every session', async () => {
      await t.setFlag('FF_ENABLE_FORGOT_PASSWORD', true);
      try {
        const user = await t.signInAs('user');
        const res = await t.client.post('/v1/auth/forgot-password', { email: user.email });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ message: MESSAGES.forgotSent });

        const mail = await t.mailer.waitFor(user.email);
        const token = /change-password\?token=([\w-]+)/.exec(mail.text)?.[1];
        expect(mail.text).toContain('http://localhost:8080/change-password?token=');
        expect(token).toBeTruthy();

        const changed = await t.client.post('/v1/auth/change-password', { token, password: 'brand-new-password' });
        expect(changed.statusCode).toBe(200);
        expect(changed.json()).toEqual({ message: 'Password changed successfully' });

        expect((await me(user.accessToken)).json()).toEqual({ message: INVALID_ACCESS_TOKEN });
        expect((await t.client.post('/v1/auth/refresh', undefined, { token: user.refreshToken })).statusCode).toBe(401);
        expect((await t.client.post('/v1/auth/signin', { email: user.email, password: user.password })).statusCode).toBe(401);
        expect((await t.client.post('/v1/auth/signin', { email: user.email, password: 'brand-new-password' })).statusCode).toBe(200);

        const second = await t.client.post('/v1/auth/change-password', { token, password: 'another-password' });
        expect(second.statusCode).toBe(400);
        expect(second.json()).toEqual({ message: MESSAGES.invalidResetToken, fields: { token: 'Invalid or expired reset link' } });
      } finally {
        await t.setFlag('FF_ENABLE_FORGOT_PASSWORD', false);
      }
    });

    it('answers an unknown email exactly like a known one, and sends nothing', async () => {
      await t.setFlag('FF_ENABLE_FORGOT_PASSWORD', true);
      try {
        const nobody = uniqueEmail('nobody');
        const res = await t.client.post('/v1/auth/forgot-password', { email: nobody });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ message: MESSAGES.forgotSent });
        await new Promise((r) => setTimeout(r, 100));
        expect(t.mailer.sent.some((m) => m.to === nobody)).toBe(false);
      } finally {
        await t.setFlag('FF_ENABLE_FORGOT_PASSWORD', false);
      }
    });

    it('only the newest link works', async () => {
      await t.setFlag('FF_ENABLE_FORGOT_PASSWORD', true);
      try {
        const user = await t.signInAs('user');
        await t.client.post('/v1/auth/forgot-password', { email: user.email });
        const first = await t.mailer.waitFor(user.email);
        t.mailer.sent.splice(t.mailer.sent.indexOf(first), 1);
        await t.client.post('/v1/auth/forgot-password', { email: user.email });
        const second = await t.mailer.waitFor(user.email);
        const tokenOf = (text: string) => /token=([\w-]+)/.exec(text)?.[1];
        expect((await t.client.post('/v1/auth/change-password', { token: tokenOf(first.text), password: 'password-x1' })).statusCode).toBe(400);
        expect((await t.client.post('/v1/auth/change-password', { token: tokenOf(second.text), password: 'password-x2' })).statusCode).toBe(200);
      } finally {
        await t.setFlag('FF_ENABLE_FORGOT_PASSWORD', false);
      }
    });

    it('answers 400 naming the field for a bad body', async () => {
      const res = await t.client.post('/v1/auth/change-password', { token: 'x', password: '123' });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toEqual({ password: 'Password must be at least 8 characters' });
      const forgot = await t.client.post('/v1/auth/forgot-password', {});
      expect(forgot.statusCode).toBe(400);
      expect(Object.keys(forgot.json().fields)).toEqual(['email']);
    });
  });
});

describe.each(TEST_DRIVERS)('auth rate limit on %s', (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(driver, { AUTH_RATE_LIMIT_MAX: 3, AUTH_RATE_LIMIT_WINDOW_MS: 60_000 });
  });
  afterAll(() => t.close());

  it('answers 429 after the limit per IP and route, with Retry-After, and counts routes apart', async () => {
    const attempt = () => t.client.post('/v1/auth/signin', { email: 'someone@example.com', password: 'wrong-password' });
    for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(401);
    const limited = await attempt();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: expect.stringMatching(/^Too many attempts: try again in /) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    // Another client IP is not affected, nor is another auth route from the same IP.
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/signin',
      remoteAddress: '10.1.2.3',
      cookies: { 'XSRF-TOKEN': t.client.xsrfToken },
      headers: { 'x-xsrf-token': t.client.xsrfToken },
      payload: { email: 'someone@example.com', password: 'wrong-password' },
    });
    expect(elsewhere.statusCode).toBe(401);
    expect((await t.client.post('/v1/auth/signup', { email: uniqueEmail(), password: 'password-1' })).statusCode).toBe(403);
  });
});
