import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { DatabaseHandle, Db } from '../db/client';
import { users } from '../db/schema';
import { seedFeatureFlags } from './feature-flags';
import { seedMaintenance } from './maintenance';
import { countAdmins, createUser, findUserByEmail, setPassword } from './users';

/** Migrations plus the rows the app expects to exist (flags, maintenance). Safe to run at every start. */
export async function prepareDatabase(handle: DatabaseHandle): Promise<void> {
  await handle.migrate();
  await seedFeatureFlags(handle.db);
  await seedMaintenance(handle.db);
}

export type FirstAdminResult =
  | { created: false }
  | { created: true; email: string; promoted: boolean; generatedPassword: string | null };

/**
 * First start (DESIGN §1): when no admin exists, make one from ADMIN_EMAIL / ADMIN_PASSWORD. Without
 * a password one is generated and returned so the caller prints it once. An existing account with
 * that email is promoted (and given the password when one is configured) rather than duplicated.
 */
export async function ensureFirstAdmin(db: Db, email: string, password?: string): Promise<FirstAdminResult> {
  if ((await countAdmins(db)) > 0) return { created: false };
  const generatedPassword = password ? null : randomBytes(12).toString('base64url');
  const existing = await findUserByEmail(db, email);
  if (existing) {
    await db.update(users).set({ role: 'admin', updatedAt: new Date() }).where(eq(users.id, existing.id));
    if (password) await setPassword(db, existing.id, password);
    return { created: true, email: existing.email, promoted: true, generatedPassword: null };
  }
  const user = await createUser(db, { email, password: password ?? generatedPassword ?? '', role: 'admin' });
  return { created: true, email: user.email, promoted: false, generatedPassword };
}
