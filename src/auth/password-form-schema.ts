import { z } from 'zod';
import { passwordSchema } from '../api/contracts/auth';

/** A new password typed twice; the contract's password rules apply (shared with the server). */
export const newPasswordFormSchema = z
  .object({
    password: passwordSchema,
    confirmPassword: z.string().min(1, 'Repeat the password'),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], error: 'Passwords do not match' });
export type NewPasswordForm = z.input<typeof newPasswordFormSchema>;
