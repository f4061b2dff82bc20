import { eq } from 'drizzle-orm';
import { TRADE_SETTINGS_DEFAULTS, type PatchTradeSettingsBody, type TradeSettings } from '../../src/api/contracts/funded-users';
import { dec, str } from '../../src/api/contracts/decimal';
import type { Db } from '../db/client';
import { tradeSettings, type TradeSettingsRow } from '../db/schema-api-keys';
import { withEvents, type EventBus } from './events/bus';
import { requireUser } from './funded-users';

/** A numeric column's text ("2500.00000000") as the value's canonical decimal ("2500"). */
const exact = (v: string | null): string | null => (v === null ? null : str(dec(v)));

function toDto(userId: string, row: TradeSettingsRow | undefined): TradeSettings {
  if (!row) return { userId, ...TRADE_SETTINGS_DEFAULTS, updatedAt: null, updatedBy: null };
  return {
    userId,
    maxRiskPercent: exact(row.maxRiskPercent),
    maxPositionNotional: exact(row.maxPositionNotional),
    maxLeverage: exact(row.maxLeverage),
    dailyLossLimit: exact(row.dailyLossLimit),
    allowedSymbols: row.allowedSymbols,
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: row.updatedBy,
  };
}

/** A user's trade settings; defaults (no limits) when none are stored. 404 for an unknown user. */
export async function getTradeSettings(db: Db, userId: string): Promise<TradeSettings> {
  await requireUser(db, userId);
  const [row] = await db.select().from(tradeSettings).where(eq(tradeSettings.userId, userId)).limit(1);
  return toDto(userId, row);
}

/**
 * `PATCH /v1/users/settings/trade` (admin): each given field replaces the stored one. Every instance hears
 * `funded-user.changed` with the commit: a funded user's next order is checked against the new limits.
 */
export async function patchTradeSettings(db: Db, actorId: string, body: PatchTradeSettingsBody, events?: EventBus | null): Promise<TradeSettings> {
  const { userId, ...fields } = body;
  await requireUser(db, userId);
  const changes = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<typeof tradeSettings.$inferInsert>;
  if (changes.allowedSymbols) changes.allowedSymbols = [...new Set(changes.allowedSymbols)];
  const row = await withEvents(db, events, async (tx, emit) => {
    const [upserted] = await tx
      .insert(tradeSettings)
      .values({ ...TRADE_SETTINGS_DEFAULTS, ...changes, userId, updatedBy: actorId, updatedAt: new Date() })
      .onConflictDoUpdate({ target: tradeSettings.userId, set: { ...changes, updatedBy: actorId, updatedAt: new Date() } })
      .returning();
    await emit('funded-user.changed', { userId });
    return upserted;
  });
  return toDto(userId, row);
}
