import { randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ChangePasswordBody, SigninBody, SignupBody, Tokens } from '../../src/api/contracts/auth';
import type { Db } from '../db/client';
import { passwordResetTokens, refreshTokens, users, type UserRow } from '../db/schema';
import { badRequest, forbidden, unauthorized } from '../lib/http-error';
import { signAccessToken } from '../lib/jwt';
import { dummyPasswordHash, verifyPassword } from '../lib/password';
import { randomToken, sha256 } from '../lib/tokens';
import { withEvents, type EventBus } from './events/bus';
import { isFeatureEnabled } from './feature-flags';
import { consumeInvitation } from './invitations';
import type { Mailer } from './mailer';
import { createUser, findUserByEmail, findUserByReferralCode, setPassword } from './users';

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const RESET_TOKEN_TTL_MS = 30 * 60 * 1000;

export interface AuthContext {
  db: Db;
  /** Signs access tokens. */
  secret: string;
  mailer: Mailer;
  /** Base of links in e-mails, e.g. `https://terminal.example.com`. */
  publicUrl: string;
  productName: string;
  log: FastifyBaseLogger;
  /** Tells every instance when sessions end (their live streams close). Absent in seeds and scripts. */
  events?: EventBus | null;
}

export const MESSAGES = {
  registrationClosed: 'Registration is closed: you need an invitation code to sign up',
  badCredentials: 'Invalid email or password',
  invalidRefresh: 'Invalid refresh token: please sign in again',
  refreshReuse: 'This refresh token was already used, so every session of this sign-in has been ended: please sign in again',
  forgotDisabled: 'Password reset is disabled',
  forgotSent: 'If an account exists for this email, we have sent a link to reset the password. The link is valid for 30 minutes.',
  invalidResetToken: 'This password reset link is invalid, expired or already used: request a new one',
  passwordChanged: 'Password changed successfully',
  signedOut: 'Signed out',
} as const;

/** A new access token plus a refresh token in `familyId` (a new family for a fresh sign-in). */
export async function issueTokens(ctx: AuthContext, user: UserRow, familyId: string = randomUUID()): Promise<Tokens> {
  const refreshToken = randomToken();
  await ctx.db.insert(refreshTokens).values({
    userId: user.id,
    familyId,
    tokenHash: sha256(refreshToken),
    expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_MS),
  });
  const accessToken = signAccessToken(ctx.secret, { sub: user.id, role: user.role, sv: user.sessionVersion, fam: familyId });
  return { accessToken, refreshToken };
}

/**
 * Sign-up (DESIGN §4): open while FF_ENABLE_REGISTRATION is on, otherwise only with a valid
 * invitation. The invitation use and the user insert share a transaction, so a failed sign-up
 * (e.g. email taken) does not burn the code.
 */
export async function signup(ctx: AuthContext, body: SignupBody): Promise<Tokens> {
  const open = await isFeatureEnabled(ctx.db, 'FF_ENABLE_REGISTRATION');
  if (!open && !body.inviteCode) throw forbidden(MESSAGES.registrationClosed);

  let referrerId: string | null = null;
  if (body.referralCode) {
    const referrer = await findUserByReferralCode(ctx.db, body.referralCode);
    if (!referrer) throw badRequest('Invalid referralCode: no user has this referral code', { referralCode: 'Unknown referral code' });
    referrerId = referrer.id;
  }

  const user = await ctx.db.transaction(async (tx) => {
    const invitation = body.inviteCode ? await consumeInvitation(tx, body.inviteCode, body.email) : null;
    return createUser(tx, {
      email: body.email,
      password: body.password,
      role: invitation?.role ?? 'user',
      referrerId,
      invitationId: invitation?.id ?? null,
    });
  });
  return issueTokens(ctx, user);
}

export async function signin(ctx: AuthContext, body: SigninBody): Promise<Tokens> {
  const user = await findUserByEmail(ctx.db, body.email);
  // Same work whether or not the email exists, so response time does not reveal accounts.
  const ok = await verifyPassword(body.password, user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user || !ok) throw unauthorized(MESSAGES.badCredentials);
  return issueTokens(ctx, user);
}

/**
 * Serialises every change to one refresh-token family: rotation, reuse detection and sign-out take
 * this transaction-scoped lock first. Without it, a refresh could insert the family's next token
 * after a concurrent revocation had already swept the family (READ COMMITTED: the sweep's snapshot
 * does not see the later insert), leaving a "revoked" sign-in alive. PGlite runs one transaction at
 * a time, so the lock is free there.
 */
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
async function lockFamily(tx: Tx, familyId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`refresh-family:${familyId}`}, 0))`);
}

/** Revokes the family's live tokens; the user whose sign-in it was, or null when none was live. */
async function revokeFamilyIn(tx: Tx, familyId: string): Promise<string | null> {
  const revoked = await tx
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)))
    .returning({ userId: refreshTokens.userId });
  return revoked[0]?.userId ?? null;
}

type RefreshOutcome = { ok: Tokens } | { fail: 'invalid' | 'reuse'; userId?: string };

/**
 * Rotation with reuse detection (DESIGN §5): the presented token is marked rotated and a new one
 * of the same family is issued. A token that was already rotated means it leaked (or a client
 * misbehaved): the whole family is revoked, ending that sign-in everywhere. Everything after the
 * look-up runs in one transaction holding the family's lock, so of two concurrent uses of one token
 * the second sees the first's rotation (and revokes the family, including the token just issued),
 * and a sign-out racing a refresh either comes first (the refresh fails) or sweeps the new token.
 */
export async function refresh(ctx: AuthContext, presented: string): Promise<Tokens> {
  const hash = sha256(presented);
  const [found] = await ctx.db
    .select({ id: refreshTokens.id, familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hash))
    .limit(1);
  if (!found) throw unauthorized(MESSAGES.invalidRefresh);

  const outcome = await withEvents(ctx.db, ctx.events, async (tx, emit): Promise<RefreshOutcome> => {
    await lockFamily(tx, found.familyId);
    // Read again under the lock: a concurrent rotation or revocation has committed by now.
    const [row] = await tx.select().from(refreshTokens).where(eq(refreshTokens.id, found.id)).limit(1);
    if (!row || row.revokedAt) return { fail: 'invalid' };
    if (row.rotatedAt) {
      const userId = await revokeFamilyIn(tx, row.familyId);
      if (userId) await emit('session.ended', { userId, familyId: row.familyId });
      return { fail: 'reuse', userId: row.userId };
    }
    if (row.expiresAt.getTime() <= Date.now()) return { fail: 'invalid' };
    await tx.update(refreshTokens).set({ rotatedAt: new Date() }).where(eq(refreshTokens.id, row.id));
    const [user] = await tx.select().from(users).where(eq(users.id, row.userId)).limit(1);
    if (!user) return { fail: 'invalid' };
    return { ok: await issueTokens({ ...ctx, db: tx as unknown as Db }, user, row.familyId) };
  });
  if ('ok' in outcome) return outcome.ok;
  if (outcome.fail === 'reuse') {
    ctx.log.warn({ userId: outcome.userId, familyId: found.familyId }, 'refresh token reuse detected: family revoked');
    throw unauthorized(MESSAGES.refreshReuse);
  }
  throw unauthorized(MESSAGES.invalidRefresh);
}

/** Ends a sign-in everywhere: every token of the family is revoked, under the family's lock (see `refresh`). */
export async function revokeFamily(ctx: Pick<AuthContext, 'db' | 'events'>, familyId: string): Promise<void> {
  await withEvents(ctx.db, ctx.events, async (tx, emit) => {
    await lockFamily(tx, familyId);
    const userId = await revokeFamilyIn(tx, familyId);
    if (userId) await emit('session.ended', { userId, familyId });
  });
}

/** The family of a refresh token (for sign-out by refresh token), or null when unknown. */
export async function familyOfRefreshToken(db: Db, presented: string): Promise<{ familyId: string; userId: string } | null> {
  const [row] = await db
    .select({ familyId: refreshTokens.familyId, userId: refreshTokens.userId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, sha256(presented)))
    .limit(1);
  return row ?? null;
}

/**
 * Forgot password (DESIGN §4). The answer is the same whether or not the email exists, and all
 * the work (lookup, token, mail) runs after the response in `work`, so neither content nor timing
 * tells. A new request replaces the user's older links.
 */
export async function forgotPassword(ctx: AuthContext, email: string): Promise<{ message: string; work: () => Promise<void> }> {
  if (!(await isFeatureEnabled(ctx.db, 'FF_ENABLE_FORGOT_PASSWORD'))) throw forbidden(MESSAGES.forgotDisabled);
  return { message: MESSAGES.forgotSent, work: () => sendResetLink(ctx, email) };
}

/** Mails a reset link to the account of `email` (nothing when there is none); also used by admins' resets. */
export async function sendResetLink(ctx: AuthContext, email: string): Promise<void> {
  const user = await findUserByEmail(ctx.db, email);
  if (!user) return;
  const token = randomToken();
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)));
    await tx.insert(passwordResetTokens).values({
      userId: user.id,
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
    });
  });
  const link = `${ctx.publicUrl.replace(/\/+$/, '')}/change-password?token=${encodeURIComponent(token)}`;
  await ctx.mailer.send({
    to: user.email,
    subject: `${ctx.productName}: reset your password`,
    text:
      `Someone (hopefully you) asked to reset the password of your ${ctx.productName} account.\n\n` +
      `Open this link within 30 minutes to choose a new password:\n${link}\n\n` +
      `If you did not ask for this, ignore this e-mail: your password stays as it is.`,
  });
}

/** Sets a new password with a reset token; the token is spent atomically and every session ends. */
export async function changePasswordWithToken(ctx: AuthContext, body: ChangePasswordBody): Promise<void> {
  const [spent] = await ctx.db
    .update(passwordResetTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordResetTokens.tokenHash, sha256(body.token)), isNull(passwordResetTokens.usedAt)))
    .returning();
  if (!spent || spent.expiresAt.getTime() <= Date.now()) {
    throw badRequest(MESSAGES.invalidResetToken, { token: 'Invalid or expired reset link' });
  }
  await setPassword(ctx.db, spent.userId, body.password, undefined, ctx.events);
}
