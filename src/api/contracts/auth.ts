import { z } from 'zod';

export const PASSWORD_MIN = 8;
export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(200, 'Password must be at most 200 characters');
export const emailSchema = z.email('Enter a valid email address').max(254).transform((e) => e.toLowerCase());

/** Public sign-up. `inviteCode` is required while FF_ENABLE_REGISTRATION is off; `referralCode` comes from `/register?ref=`. */
export const signupBodySchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  inviteCode: z.string().trim().min(1).max(64).optional(),
  referralCode: z.string().trim().min(1).max(64).optional(),
});
export type SignupBody = z.infer<typeof signupBodySchema>;

export const signinBodySchema = z.object({
  email: emailSchema,
  password: z.string().min(1, 'Enter your password'),
});
export type SigninBody = z.infer<typeof signinBodySchema>;

/** Answer of signup, signin and refresh. */
export const tokensSchema = z.object({ accessToken: z.string(), refreshToken: z.string() });
export type Tokens = z.infer<typeof tokensSchema>;

export const forgotPasswordBodySchema = z.object({ email: emailSchema });
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBodySchema>;

/** Sets a new password with the single-use token from the forgot-password e-mail (`/change-password?token=`). */
export const changePasswordBodySchema = z.object({
  token: z.string().min(1, 'The reset link is missing its token'),
  password: passwordSchema,
});
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

/**
 * `POST /v1/auth/signout`: ends one sign-in (its refresh-token family). Either send the Bearer access
 * token, or this body with the refresh token (works when the access token has already expired).
 */
export const signoutBodySchema = z.object({ refreshToken: z.string().min(1).max(512).optional() });
export type SignoutBody = z.infer<typeof signoutBodySchema>;
