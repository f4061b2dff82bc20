import { eq, sql } from 'drizzle-orm';
import {
  SERVER_SETTINGS_DEFAULTS,
  serverSettingsSchema,
  type PatchServerSettingsBody,
  type ServerSettings,
} from '../../src/api/contracts/settings';
import type { Db } from '../db/client';
import { userSettings } from '../db/schema';

/**
 * Stored values over the defaults, key by key, generic over the contract's keys: a key added to
 * the contract later just appears with its default, and a stored value that no longer fits the
 * schema (contract changed) falls back to the default instead of failing the whole read.
 */
export function mergeSettings(stored: Record<string, unknown>): ServerSettings {
  const out: Record<string, unknown> = { ...SERVER_SETTINGS_DEFAULTS };
  for (const [key, schema] of Object.entries(serverSettingsSchema.shape)) {
    if (!(key in stored)) continue;
    const parsed = schema.safeParse(stored[key]);
    if (parsed.success) out[key] = parsed.data;
  }
  return out as ServerSettings;
}

export async function getServerSettings(db: Db, userId: string): Promise<ServerSettings> {
  const [row] = await db.select({ data: userSettings.data }).from(userSettings).where(eq(userSettings.userId, userId)).limit(1);
  return mergeSettings(row?.data ?? {});
}

/** Each given key replaces the stored one; `jsonb ||` does it in one statement, so concurrent patches of different keys both land. */
export async function patchServerSettings(db: Db, userId: string, patch: PatchServerSettingsBody): Promise<ServerSettings> {
  const given = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  const json = JSON.stringify(given);
  const [row] = await db
    .insert(userSettings)
    .values({ userId, data: given })
    .onConflictDoUpdate({
      target: userSettings.userId,
      set: { data: sql`${userSettings.data} || ${json}::jsonb`, updatedAt: new Date() },
    })
    .returning({ data: userSettings.data });
  return mergeSettings(row.data);
}
