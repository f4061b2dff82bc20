import { z } from 'zod';
import { emailSchema } from './auth';
import { instantSchema, pagedSchema, pageQuerySchema, roleSchema } from './common';

/**
 * Where an invitation stands (DESIGN §4): `unused` (uses left, not expired), `used` (every use
 * taken; `usedBy` says by whom), `expired` (past `expiresAt` with uses left), `revoked` (an admin
 * withdrew it). A used or revoked code reads as such even after its expiry.
 */
export const INVITATION_STATUSES = ['unused', 'used', 'expired', 'revoked'] as const;
export const invitationStatusSchema = z.enum(INVITATION_STATUSES);
export type InvitationStatus = z.infer<typeof invitationStatusSchema>;

export const invitationSchema = z.object({
  id: z.uuid(),
  code: z.string(),
  /** How many sign-ups the code admits, and how many it has admitted. */
  maxUses: z.number().int().positive(),
  uses: z.number().int().nonnegative(),
  expiresAt: z.iso.datetime().nullable(),
  /** Only this address may sign up with the code (null: anyone). */
  email: z.string().nullable(),
  /** Role of the invited account (null: user). */
  role: roleSchema.nullable(),
  status: invitationStatusSchema,
  /** Accounts that signed up with the code. */
  usedBy: z.array(z.object({ id: z.uuid(), email: z.string() })),
  createdAt: z.iso.datetime(),
  revokedAt: z.iso.datetime().nullable(),
});
export type Invitation = z.infer<typeof invitationSchema>;

/** `GET /v1/invitations` (admin): newest first, cursor-paged, optionally one status. */
export const invitationsQuerySchema = pageQuerySchema.extend({ status: invitationStatusSchema.optional() });
export type InvitationsQuery = z.infer<typeof invitationsQuerySchema>;
export const invitationsPageSchema = pagedSchema(invitationSchema);
export type InvitationsPage = z.infer<typeof invitationsPageSchema>;

export const INVITATIONS_MAX_PER_REQUEST = 100;

/**
 * `POST /v1/invitations` (admin): `count` codes with the same options. `expiresAt` must be in the
 * future (null: never expires); `maxUses` is per code.
 */
export const createInvitationsBodySchema = z.object({
  count: z
    .number()
    .int('Enter a whole number')
    .min(1, 'Generate at least 1 code')
    .max(INVITATIONS_MAX_PER_REQUEST, `Generate at most ${INVITATIONS_MAX_PER_REQUEST} codes at once`),
  maxUses: z.number().int('Enter a whole number').min(1, 'A code admits at least 1 sign-up').max(1000).default(1),
  expiresAt: instantSchema('Enter a date and time')
    .nullable()
    .default(null)
    .refine((v) => v === null || new Date(v).getTime() > Date.now(), 'The expiry must be in the future'),
  email: emailSchema.nullable().default(null),
  role: roleSchema.nullable().default(null),
});
export type CreateInvitationsBody = z.input<typeof createInvitationsBodySchema>;

export const createdInvitationsSchema = z.object({ data: z.array(invitationSchema) });
export type CreatedInvitations = z.infer<typeof createdInvitationsSchema>;
