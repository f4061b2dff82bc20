import { z } from 'zod';
import { pagedSchema, pageQuerySchema, roleSchema } from './common';
import { passwordSchema, emailSchema } from './auth';

export const userSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  role: roleSchema,
  /** The user's own referral code, for the `/register?ref=CODE` link. */
  referralCode: z.string(),
  referrerId: z.uuid().nullable(),
  createdAt: z.iso.datetime(),
});
export type User = z.infer<typeof userSchema>;

export const usersQuerySchema = pageQuerySchema.extend({
  /** Case-insensitive search in e-mail. */
  query: z.string().trim().max(254).optional(),
  role: roleSchema.optional(),
});
export type UsersQuery = z.infer<typeof usersQuerySchema>;

export const usersPageSchema = pagedSchema(userSchema);
export type UsersPage = z.infer<typeof usersPageSchema>;

/** `PATCH /v1/users/{id}`: admins may change any field; a user may change only their own password (sending only `password`). */
export const patchUserBodySchema = z
  .object({
    password: passwordSchema.optional(),
    role: roleSchema.optional(),
    email: emailSchema.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'Nothing to update' });
export type PatchUserBody = z.infer<typeof patchUserBodySchema>;
