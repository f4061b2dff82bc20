import { z } from 'zod';

/**
 * `POST /v1/users/{id}/reset-password` (admin). `link` e-mails the user a single-use, 30-minute reset
 * link (the forgot-password link; written to the server log without SMTP) and leaves the current
 * password working until it is used. `temporary-password` sets a random password at once, ends
 * every session of the user and returns it once, for the admin to hand over.
 */
export const RESET_PASSWORD_METHODS = ['link', 'temporary-password'] as const;
export const resetPasswordBodySchema = z.object({ method: z.enum(RESET_PASSWORD_METHODS) });
export type ResetPasswordBody = z.infer<typeof resetPasswordBodySchema>;

export const resetPasswordResultSchema = z.object({
  message: z.string(),
  /** Only for `temporary-password`: shown once, never stored in clear. */
  temporaryPassword: z.string().nullable(),
});
export type ResetPasswordResult = z.infer<typeof resetPasswordResultSchema>;
