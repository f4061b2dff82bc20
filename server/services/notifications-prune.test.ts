/** A user keeps the newest NOTIFICATIONS_KEPT notifications: the prune runs after the write's commit (off the push's path). */
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications } from '../db/schema-jobs';
import { createTestApp, TEST_DRIVERS, type TestApp } from '../test/helper';
import { addNotification, NOTIFICATIONS_KEPT } from './notifications';

describe.each(TEST_DRIVERS)('notifications kept per user on %s', (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(driver);
  });
  afterAll(() => t?.close());

  it('a new notification past the limit drops the oldest, and keeps the newest', async () => {
    const user = await t.signInAs('user');
    const at = Date.UTC(2026, 0, 1);
    await t.db.insert(notifications).values(
      Array.from({ length: NOTIFICATIONS_KEPT }, (_, i) => ({ userId: user.id, kind: 'job' as const, title: `old ${i}`, body: 'x', dedupeKey: `old:${i}`, createdAt: new Date(at + i * 1000) })),
    );
    const added = await addNotification(t.db, { userId: user.id, kind: 'job', title: 'new', body: 'x', dedupeKey: 'new:1' }, t.app.events);
    expect(added?.title).toBe('new');
    const [{ n }] = await t.db.select({ n: count() }).from(notifications).where(eq(notifications.userId, user.id));
    expect(n).toBe(NOTIFICATIONS_KEPT);
    const titles = (await t.db.select({ title: notifications.title }).from(notifications).where(eq(notifications.userId, user.id))).map((r) => r.title);
    expect(titles).toContain('new');
    expect(titles).not.toContain('old 0');
  });
});
