import type { ResetPasswordBody, ResetPasswordResult } from '../../src/api/contracts/user-admin';
import { notFound } from '../lib/http-error';
import { randomCode } from '../lib/tokens';
import { sendResetLink, type AuthContext } from './auth';
import { findUserById, setPassword } from './users';

export const TEMPORARY_PASSWORD_LENGTH = 16;

/**
 * `POST /v1/users/{id}/reset-password` (admin). A reset link leaves the password as it is until the
 * user opens it; a temporary password replaces it now and ends every session of the user.
 */
export async function resetUserPassword(ctx: AuthContext, userId: string, body: ResetPasswordBody): Promise<ResetPasswordResult> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw notFound('User not found');
  if (body.method === 'link') {
    await sendResetLink(ctx, user.email);
    return { message: `A password reset link was sent to ${user.email}`, temporaryPassword: null };
  }
  // Look-alike-free symbols: the admin reads it out or pastes it to the user.
  const temporaryPassword = randomCode(TEMPORARY_PASSWORD_LENGTH);
  await setPassword(ctx.db, user.id, temporaryPassword, undefined, ctx.events);
  return { message: `The password of ${user.email} was reset and every session ended`, temporaryPassword };
}
