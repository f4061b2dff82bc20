import { z } from 'zod';
import { exchangeIdSchema, networkSchema } from './common';

/**
 * Exchange API keys (DESIGN §3). The secret (and the key itself, and OKX's passphrase) are stored
 * encrypted under a key derived from a **key password** the user chooses and the server never
 * keeps; no answer ever carries them. Calls that need the decrypted key send the password in the
 * `X-Key-Password` header.
 */

export const KEY_PASSWORD_HEADER = 'x-key-password';
export const KEY_PASSWORD_MIN = 8;
export const KEY_PASSWORD_MAX = 128;
/** The answer (403) to a key password that does not open the stored key. */
export const WRONG_KEY_PASSWORD = 'Wrong key password';

export const apiKeyNameSchema = z.string().trim().min(1, 'Enter a name').max(64, 'Name must be at most 64 characters');
export const keyPasswordSchema = z
  .string()
  .min(KEY_PASSWORD_MIN, `Key password must be at least ${KEY_PASSWORD_MIN} characters`)
  .max(KEY_PASSWORD_MAX, `Key password must be at most ${KEY_PASSWORD_MAX} characters`);

/** What the exchange said the key may do when it was last checked. `details` are the exchange's own names. */
export const apiKeyPermissionsSchema = z.object({
  read: z.boolean(),
  trade: z.boolean(),
  /** Withdrawal enabled: a risk the UI warns about (a trading terminal never needs it). */
  withdraw: z.boolean(),
  details: z.array(z.string()),
});
export type ApiKeyPermissions = z.infer<typeof apiKeyPermissionsSchema>;

export const apiKeySchema = z.object({
  id: z.uuid(),
  userId: z.uuid(),
  name: z.string(),
  exchange: exchangeIdSchema,
  network: networkSchema,
  /** e.g. `dbef…cc83`: enough to recognise the key, never the key. */
  apiKeyMasked: z.string(),
  permissions: apiKeyPermissionsSchema,
  createdAt: z.iso.datetime(),
  /** When the exchange last accepted the key (on add, or `POST /v1/api-keys/{id}/verify`). */
  lastValidatedAt: z.iso.datetime().nullable(),
  /**
   * The owner allowed the server to keep this key's credentials sealed while server-managed
   * brackets run (FF_ENABLE_SEMI_AUTO); `PUT` / `DELETE /v1/api-keys/{id}/server-custody`.
   */
  serverCustody: z.boolean(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;
export const apiKeyListSchema = z.array(apiKeySchema);

/**
 * `POST /v1/api-keys` (and the admin's `POST /v1/users/{userId}/api-keys`). The key is checked
 * against the exchange (the simulator in sim mode) before it is stored; a key the exchange rejects
 * is not stored. `passphrase` is required for OKX and refused for the others.
 */
export const createApiKeyBodySchema = z
  .object({
    name: apiKeyNameSchema,
    exchange: exchangeIdSchema,
    network: networkSchema,
    apiKey: z.string().trim().min(1, 'Enter the API key').max(256, 'API key is too long'),
    apiSecret: z.string().trim().min(1, 'Enter the API secret').max(512, 'API secret is too long'),
    passphrase: z.string().min(1, 'Enter the passphrase').max(128, 'Passphrase is too long').optional(),
    keyPassword: keyPasswordSchema,
  })
  .strict()
  .superRefine((b, ctx) => {
    if (b.exchange === 'okx' && !b.passphrase) ctx.addIssue({ code: 'custom', path: ['passphrase'], message: 'OKX keys need their passphrase' });
    if (b.exchange !== 'okx' && b.passphrase) ctx.addIssue({ code: 'custom', path: ['passphrase'], message: 'Only OKX keys have a passphrase' });
  });
export type CreateApiKeyBody = z.infer<typeof createApiKeyBodySchema>;

/** `PATCH /v1/api-keys/{id}`: only the name changes (a new key or secret is a new API key). */
export const patchApiKeyBodySchema = z.object({ name: apiKeyNameSchema }).strict();
export type PatchApiKeyBody = z.infer<typeof patchApiKeyBodySchema>;

/**
 * The `X-Key-Password` header of calls that open the stored key. Capped at what a key password can be
 * (`KEY_PASSWORD_MAX`, as when the key was added): a longer one cannot open any key, so it is a 400
 * before any scrypt work and is not counted as a guess.
 */
export const keyPasswordHeadersSchema = z.object({
  [KEY_PASSWORD_HEADER]: z
    .string({ error: 'Send the key password in the X-Key-Password header' })
    .min(1, 'Send the key password in the X-Key-Password header')
    .max(KEY_PASSWORD_MAX, `A key password is at most ${KEY_PASSWORD_MAX} characters`),
});

/**
 * The same header on trading calls (`/v1/trade/{apiKeyId}/…`), where it may be left out once the
 * session unlocked the key (`POST /v1/api-keys/{id}/unlock`, DESIGN §3.2 "Unlocking"); sent anyway,
 * it unlocks again when the unlock has ended.
 */
export const tradeKeyPasswordHeadersSchema = z.object({ [KEY_PASSWORD_HEADER]: keyPasswordHeadersSchema.shape[KEY_PASSWORD_HEADER].optional() });

/**
 * `POST /v1/api-keys/{id}/unlock`: `remember` is the user's "remember on this device", which bounds
 * how long the server keeps the key unlocked for this sign-in (a shorter bound without it).
 */
export const unlockApiKeyBodySchema = z.object({ remember: z.boolean().optional() }).strict().nullish();
export type UnlockApiKeyBody = z.infer<typeof unlockApiKeyBodySchema>;

/**
 * `POST /v1/api-keys/sim-credentials` (simulator mode only): a new key the simulator minted
 * (server/sim/private/README.md): key `sim-<label>-<random>`, a random secret (and OKX passphrase)
 * shown only in this answer — the simulator keeps them sealed; `withdraw` puts "withdraw" in the
 * key, which the simulator answers with the withdrawal permission.
 */
export const simCredentialsBodySchema = z
  .object({
    exchange: exchangeIdSchema,
    label: z
      .string()
      .trim()
      .regex(/^[a-z0-9]{0,20}$/i, 'Use up to 20 letters and digits')
      .optional(),
    withdraw: z.boolean().optional(),
  })
  .strict();
export type SimCredentialsBody = z.infer<typeof simCredentialsBodySchema>;

export const simCredentialsSchema = z.object({
  apiKey: z.string(),
  apiSecret: z.string(),
  /** OKX only. */
  passphrase: z.string().optional(),
});
export type SimCredentials = z.infer<typeof simCredentialsSchema>;
