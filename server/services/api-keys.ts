import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { WRONG_KEY_PASSWORD, type ApiKey, type CreateApiKeyBody, type SimCredentials, type SimCredentialsBody } from '../../src/api/contracts/api-keys';
import type { Db } from '../db/client';
import { apiKeys, type ApiKeyRow } from '../db/schema-api-keys';
import type { ExchangeCredentials } from '../exchanges/transport';
import { HttpError, notFound } from '../lib/http-error';
import { maskKey, open, seal, WrongPasswordError } from '../lib/secret-box';
import { scryptSlots } from '../lib/semaphore';
import type { EventBus } from './events/bus';
import { internalSimControlHeaders } from '../sim/control-auth';
import type { KeyPasswordLimiter } from './key-password-limit';
import type { InjectFn, KeyValidator } from './key-validation';

export const API_KEY_NOT_FOUND = 'API key not found';

export function toApiKeyDto(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    userId: row.userId,
    name: row.name,
    exchange: row.exchange,
    network: row.network,
    apiKeyMasked: row.apiKeyMasked,
    permissions: row.permissions,
    createdAt: row.createdAt.toISOString(),
    lastValidatedAt: row.lastValidatedAt ? row.lastValidatedAt.toISOString() : null,
    serverCustody: row.serverCustodyAt !== null,
  };
}

/**
 * Binds a ciphertext to its row and owner (GCM additional data): copied into another row it no
 * longer opens, whatever the password.
 */
const aadOf = (row: Pick<ApiKeyRow, 'id' | 'userId' | 'exchange' | 'network'>) => `api-key:v1:${row.id}:${row.userId}:${row.exchange}:${row.network}`;

/** The stored secret payload (short keys keep the ciphertext small). */
interface SecretPayload {
  k: string;
  s: string;
  p?: string;
}

/**
 * `POST /v1/api-keys`: checks the key with the exchange first (a refused or unreachable key is
 * not stored), then stores it sealed under the key password.
 */
export async function createApiKey(db: Db, validator: KeyValidator, ownerId: string, actorId: string, body: CreateApiKeyBody): Promise<ApiKeyRow> {
  const creds: ExchangeCredentials = { apiKey: body.apiKey, apiSecret: body.apiSecret, ...(body.passphrase ? { passphrase: body.passphrase } : {}) };
  const permissions = await validator.permissions(body.exchange, body.network, creds);
  const id = randomUUID();
  const payload: SecretPayload = { k: creds.apiKey, s: creds.apiSecret, ...(creds.passphrase ? { p: creds.passphrase } : {}) };
  const aad = aadOf({ id, userId: ownerId, exchange: body.exchange, network: body.network });
  const sealed = await scryptSlots.run(() => seal(JSON.stringify(payload), body.keyPassword, aad));
  const [row] = await db
    .insert(apiKeys)
    .values({
      id,
      userId: ownerId,
      name: body.name,
      exchange: body.exchange,
      network: body.network,
      apiKeyMasked: maskKey(creds.apiKey),
      ciphertext: sealed.ciphertext,
      iv: sealed.iv,
      tag: sealed.tag,
      kdfSalt: sealed.salt,
      kdfParams: sealed.kdf,
      permissions,
      createdBy: actorId,
      lastValidatedAt: new Date(),
    })
    .returning();
  return row;
}

export async function listApiKeys(db: Db, ownerId: string): Promise<ApiKeyRow[]> {
  return db.select().from(apiKeys).where(eq(apiKeys.userId, ownerId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

/** A key of `ownerId`; 404 for a missing key and for someone else's (no existence oracle). */
export async function getApiKey(db: Db, ownerId: string, id: string): Promise<ApiKeyRow> {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, ownerId)))
    .limit(1);
  if (!row) throw notFound(API_KEY_NOT_FOUND);
  return row;
}

export async function renameApiKey(db: Db, ownerId: string, id: string, name: string): Promise<ApiKeyRow> {
  const [row] = await db
    .update(apiKeys)
    .set({ name })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, ownerId)))
    .returning();
  if (!row) throw notFound(API_KEY_NOT_FOUND);
  return row;
}

/**
 * Deletes the key and, with it, the transactions recorded on it and its sealed credentials; the
 * brackets the server managed with it stop at once (their runs lose their lease; orders stay), and
 * every instance hears `api-key.deleted` when this commits (its streams end, its connector state goes).
 */
export async function deleteApiKey(db: Db, events: EventBus, ownerId: string, id: string): Promise<void> {
  await events.transaction(db, async (tx, emit) => {
    const deleted = await tx
      .delete(apiKeys)
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, ownerId)))
      .returning({ id: apiKeys.id });
    if (!deleted.length) throw notFound(API_KEY_NOT_FOUND);
    // Its managed brackets stop in this transaction (the jobs plugin subscribes `within`).
    await emit('api-key.deleted', { apiKeyId: id, userId: ownerId });
  });
}

/**
 * The decrypted credentials of a stored key, for the server-side trading calls (DESIGN §3:
 * the key password arrives in `X-Key-Password`). 403 'Wrong key password' when it does not open;
 * 429 (Retry-After) past the wrong-password limits of `limiter` (`app.keyPasswordLimiter`); 503 when
 * the process's scrypt slots are full (lib/semaphore.ts).
 */
export async function openApiKey(limiter: KeyPasswordLimiter, row: ApiKeyRow, keyPassword: string): Promise<ExchangeCredentials> {
  let plaintext: string;
  try {
    const sealed = { ciphertext: row.ciphertext, iv: row.iv, tag: row.tag, salt: row.kdfSalt, kdf: row.kdfParams };
    plaintext = await limiter.attempt({ userId: row.userId, keyId: row.id }, keyPassword, () => scryptSlots.run(() => open(sealed, keyPassword, aadOf(row))));
  } catch (err) {
    if (err instanceof WrongPasswordError) throw new HttpError(403, WRONG_KEY_PASSWORD, { keyPassword: WRONG_KEY_PASSWORD });
    throw err;
  }
  const payload = JSON.parse(plaintext) as SecretPayload;
  return { apiKey: payload.k, apiSecret: payload.s, ...(payload.p ? { passphrase: payload.p } : {}) };
}

/** `POST /v1/api-keys/{id}/verify`: opens the key and asks the exchange again; stores what it says now. */
export async function verifyApiKey(
  db: Db,
  validator: KeyValidator,
  limiter: KeyPasswordLimiter,
  ownerId: string,
  id: string,
  keyPassword: string,
): Promise<ApiKeyRow> {
  const row = await getApiKey(db, ownerId, id);
  const creds = await openApiKey(limiter, row, keyPassword);
  const permissions = await validator.permissions(row.exchange, row.network, creds);
  const [updated] = await db.update(apiKeys).set({ permissions, lastValidatedAt: new Date() }).where(eq(apiKeys.id, row.id)).returning();
  return updated;
}

const mintedSchema = z.object({ apiKey: z.string().min(1), apiSecret: z.string().min(1), passphrase: z.string().min(1) });

/**
 * `POST /v1/api-keys/sim-credentials`: a new key minted by the simulator (`POST /sim/_control/credentials`,
 * in-process): random secret (and OKX passphrase), kept sealed by the simulator, shown here once
 * (server/sim/private/README.md). The user adds it as any key (stored under their key password).
 */
export async function simCredentials(inject: InjectFn, body: SimCredentialsBody): Promise<SimCredentials> {
  const query = new URLSearchParams({ exchange: body.exchange, ...(body.label ? { label: body.label } : {}), ...(body.withdraw ? { withdraw: 'true' } : {}) });
  const res = await inject({ method: 'POST', url: `/sim/_control/credentials?${query}`, headers: internalSimControlHeaders() });
  if (res.status !== 200) throw new HttpError(502, 'The market simulator did not mint a key');
  const minted = mintedSchema.parse(JSON.parse(res.text));
  return { apiKey: minted.apiKey, apiSecret: minted.apiSecret, ...(body.exchange === 'okx' ? { passphrase: minted.passphrase } : {}) };
}
