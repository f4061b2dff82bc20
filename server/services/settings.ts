import { eq, sql, type SQL } from 'drizzle-orm';
import {
  isPerExchangeSettingsKey,
  PER_EXCHANGE_SETTINGS_KEYS,
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

/**
 * Applies a PATCH by the contract's rule (`applyServerSettingsPatch`) in one statement, so concurrent
 * patches of different keys — or of different exchanges' lists of one per-exchange key — all land:
 * a per-exchange map is merged into the stored map with `jsonb ||`, any other key replaces the stored one.
 */
export async function patchServerSettings(db: Db, userId: string, patch: PatchServerSettingsBody): Promise<ServerSettings> {
  const given = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  const whole = Object.fromEntries(Object.entries(given).filter(([k]) => !isPerExchangeSettingsKey(k)));
  let data: SQL = sql`${userSettings.data} || ${JSON.stringify(whole)}::jsonb`;
  for (const key of PER_EXCHANGE_SETTINGS_KEYS) {
    if (given[key] === undefined) continue;
    // A stored value that is not an object (an older or damaged row) is replaced, not merged.
    const stored = sql`case when jsonb_typeof(${userSettings.data} -> ${key}::text) = 'object' then ${userSettings.data} -> ${key}::text else '{}'::jsonb end`;
    data = sql`${data} || jsonb_build_object(${key}::text, ${stored} || ${JSON.stringify(given[key])}::jsonb)`;
  }
  const [row] = await db
    .insert(userSettings)
    .values({ userId, data: given })
    .onConflictDoUpdate({ target: userSettings.userId, set: { data, updatedAt: new Date() } })
    .returning({ data: userSettings.data });
  return mergeSettings(row.data);
}
