import { eq } from 'drizzle-orm';
import type { Maintenance } from '../../src/api/contracts/maintenance';
import type { Db } from '../db/client';
import { maintenance } from '../db/schema';

/** Ensures the single row exists (idempotent). */
export async function seedMaintenance(db: Db): Promise<void> {
  await db.insert(maintenance).values({ id: 1, message: null }).onConflictDoNothing({ target: maintenance.id });
}

export async function getMaintenance(db: Db): Promise<Maintenance> {
  const [row] = await db.select({ message: maintenance.message }).from(maintenance).where(eq(maintenance.id, 1)).limit(1);
  return { message: row?.message ?? null };
}

/** An empty (or blank) message clears the banner. */
export async function setMaintenance(db: Db, message: string, updatedBy: string): Promise<Maintenance> {
  const value = message.trim() === '' ? null : message.trim();
  const [row] = await db
    .insert(maintenance)
    .values({ id: 1, message: value, updatedBy, updatedAt: new Date() })
    .onConflictDoUpdate({ target: maintenance.id, set: { message: value, updatedBy, updatedAt: new Date() } })
    .returning({ message: maintenance.message });
  return { message: row.message };
}
