import { asc, eq } from 'drizzle-orm';
import {
  FEATURE_FLAG_DEFAULTS,
  FEATURE_FLAG_KEYS,
  type CreateFeatureFlagBody,
  type FeatureFlag,
  type FeatureFlagKey,
  type FeatureFlagMap,
  type UpdateFeatureFlagBody,
} from '../../src/api/contracts/feature-flags';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { featureFlags, type FeatureFlagRow } from '../db/schema';
import { badRequest, conflict, notFound } from '../lib/http-error';

const BUILT_IN = new Set<string>(FEATURE_FLAG_KEYS);
export const isBuiltInFlag = (name: string): name is FeatureFlagKey => BUILT_IN.has(name);

export const toFeatureFlagDto = (row: FeatureFlagRow): FeatureFlag => ({ id: row.id, name: row.name, enabled: row.enabled });

/**
 * Gives every SPEC flag a row with its default, so the admin list shows all 17 for toggling.
 * Idempotent: existing rows (an admin's choice) are left alone.
 */
export async function seedFeatureFlags(db: Db): Promise<void> {
  await db
    .insert(featureFlags)
    .values(FEATURE_FLAG_KEYS.map((name) => ({ name, enabled: FEATURE_FLAG_DEFAULTS[name] })))
    .onConflictDoNothing({ target: featureFlags.name });
}

export async function listFeatureFlags(db: Db): Promise<FeatureFlagRow[]> {
  return db.select().from(featureFlags).orderBy(asc(featureFlags.name));
}

/** The flag map (SPEC §7 `/v1/feature-flags/json`): SPEC defaults, overridden by stored rows, plus admin-made flags. */
export async function getFeatureFlagMap(db: Db): Promise<FeatureFlagMap> {
  const map: Record<string, boolean> = { ...FEATURE_FLAG_DEFAULTS };
  for (const row of await db.select({ name: featureFlags.name, enabled: featureFlags.enabled }).from(featureFlags)) {
    map[row.name] = row.enabled;
  }
  return map as FeatureFlagMap;
}

/** Server-side checks read the same source as the map. */
export async function isFeatureEnabled(db: Db, name: FeatureFlagKey): Promise<boolean> {
  const [row] = await db.select({ enabled: featureFlags.enabled }).from(featureFlags).where(eq(featureFlags.name, name)).limit(1);
  return row ? row.enabled : FEATURE_FLAG_DEFAULTS[name];
}

const duplicate = (name: string) => conflict(`A feature flag named ${name} already exists`, { name: 'This name is already taken' });

export async function createFeatureFlag(db: Db, body: CreateFeatureFlagBody): Promise<FeatureFlagRow> {
  try {
    const [row] = await db.insert(featureFlags).values({ name: body.name, enabled: body.enabled }).returning();
    return row;
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicate(body.name);
    throw err;
  }
}

export async function updateFeatureFlag(db: Db, id: string, body: UpdateFeatureFlagBody): Promise<FeatureFlagRow> {
  if (body.id !== undefined && body.id !== id) {
    throw badRequest('Invalid id: the body id must match the flag in the URL', { id: 'Does not match the URL' });
  }
  const [current] = await db.select().from(featureFlags).where(eq(featureFlags.id, id)).limit(1);
  if (!current) throw notFound('Feature flag not found');
  // The app reads built-in flags by name: renaming one would silently reset it to its default.
  if (isBuiltInFlag(current.name) && body.name !== current.name) {
    throw conflict(`${current.name} is a built-in flag and cannot be renamed`, { name: 'Built-in flags cannot be renamed' });
  }
  try {
    const [row] = await db
      .update(featureFlags)
      .set({ name: body.name, enabled: body.enabled, updatedAt: new Date() })
      .where(eq(featureFlags.id, id))
      .returning();
    return row;
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicate(body.name);
    throw err;
  }
}

export async function deleteFeatureFlag(db: Db, id: string): Promise<void> {
  const [current] = await db.select().from(featureFlags).where(eq(featureFlags.id, id)).limit(1);
  if (!current) throw notFound('Feature flag not found');
  if (isBuiltInFlag(current.name)) {
    throw conflict(`${current.name} is a built-in flag and cannot be deleted: switch it off instead`);
  }
  await db.delete(featureFlags).where(eq(featureFlags.id, id));
}
