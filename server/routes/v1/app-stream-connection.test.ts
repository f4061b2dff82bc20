/**
 * One `/v1/stream` connection against a socket the test controls: a tab that stops reading is
 * dropped rather than queued for without bound, a socket that stops answering pings is dropped, and
 * a live one hears `keepalive` (the browser cannot see pings).
 */
import { EventEmitter } from 'node:events';
import { sql } from 'drizzle-orm';
import type WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppStreamServerMessage } from '../../../src/api/contracts/notifications';
import { createTestApp, type TestApp } from '../../test/helper';
import { until } from '../../test/waiting';
import { APP_STREAM_MAX_BUFFERED_BYTES, AppStreamConnection } from './app-stream-connection';

class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  terminated = false;
  pings = 0;
  closeCode: number | null = null;
  readonly sent: AppStreamServerMessage[] = [];
  send(data: string): void {
    this.sent.push(JSON.parse(data) as AppStreamServerMessage);
  }
  ping(): void {
    this.pings++;
  }
  terminate(): void {
    this.terminated = true;
    this.readyState = 3;
    this.emit('close');
  }
  close(code: number): void {
    this.closeCode = code;
    this.readyState = 3;
    this.emit('close');
  }
  receive(message: unknown): void {
    this.emit('message', Buffer.from(JSON.stringify(message)), false);
  }
}

describe('an app stream connection', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(() => t?.close());

  const open = async (keepaliveMs = 60_000, sessionCheckMs = 60_000, app = t.app) => {
    const user = await t.signInAs('user');
    const socket = new FakeSocket();
    const ended: AppStreamConnection[] = [];
    const joined: AppStreamConnection[] = [];
    const c = new AppStreamConnection(socket as unknown as WebSocket, {
      app,
      secret: t.config.JWT_SECRET ?? '',
      sessionCheckMs,
      keepaliveMs,
      joined: (x) => joined.push(x),
      ended: (x) => ended.push(x),
    });
    socket.receive({ op: 'auth', accessToken: user.accessToken });
    await until('the resume', () => socket.sent.some((m) => m.type === 'notifications' && m.resume));
    return { socket, c, ended, joined, user };
  };

  /** The app as the connection sees it, with a database that times out while failing (the pool exhausted) and no held checks. */
  const failingDatabase = () => {
    let failing = false;
    const db = new Proxy(t.app.db, {
      get: (target, prop, receiver) => {
        if (failing && prop === 'select') return () => { throw new Error('timeout exceeded when trying to connect'); };
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    const app = Object.create(t.app, { db: { value: db }, sessionCache: { value: undefined } }) as typeof t.app;
    return { app, fail: (on: boolean) => (failing = on) };
  };

  it('drops a tab that stops reading once its queue is full, instead of buffering more', async () => {
    const { socket, c, ended, joined } = await open();
    expect(joined).toEqual([c]);
    const push: AppStreamServerMessage = { type: 'settings-changed' };
    c.send(push);
    expect(socket.sent.at(-1)).toEqual(push);
    socket.bufferedAmount = APP_STREAM_MAX_BUFFERED_BYTES;
    const before = socket.sent.length;
    c.send(push);
    expect(socket.terminated).toBe(true);
    expect(socket.sent.length).toBe(before);
    expect(ended).toEqual([c]);
  });

  it('pings and says keepalive; a socket that leaves a ping unanswered is dropped', async () => {
    const { socket, ended, c } = await open(50);
    await until('a keepalive', () => socket.sent.some((m) => m.type === 'keepalive'));
    expect(socket.pings).toBeGreaterThan(0);
    socket.emit('pong');
    expect(socket.terminated).toBe(false);
    // From now on nothing answers.
    await until('the silent socket dropped', () => socket.terminated);
    expect(ended).toEqual([c]);
  });

  it('stays open while the database cannot answer its session check, and closes 4401 once the session has ended', async () => {
    const { app, fail } = failingDatabase();
    const { socket, ended, c } = await open(60_000, 30, app);
    fail(true);
    const checksBefore = socket.sent.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(socket.closeCode).toBeNull();
    expect(socket.terminated).toBe(false);
    expect(ended).toEqual([]);
    expect(socket.sent.length).toBe(checksBefore);
    // The database back and the sign-in ended: the next check signs the tab out.
    fail(false);
    await t.app.db.execute(sql`update refresh_tokens set revoked_at = now()`);
    await until('the signed-out socket closed', () => socket.closeCode !== null);
    expect(socket.closeCode).toBe(4401);
    expect(ended).toEqual([c]);
  });

  it("a token sent again while the database cannot answer keeps the tab signed in; a new socket is told to come back (1013), not signed out", async () => {
    const { app, fail } = failingDatabase();
    const { socket, ended, user } = await open(60_000, 60_000, app);
    fail(true);
    // The tab's token, sent again before it expires (every 10 min).
    socket.receive({ op: 'auth', accessToken: user.accessToken });
    await new Promise((r) => setTimeout(r, 200));
    expect([socket.closeCode, ended.length]).toEqual([null, 0]);
    // A socket opening now cannot have its token checked: "try again later", which the tab answers with its back-off.
    const fresh = new FakeSocket();
    new AppStreamConnection(fresh as unknown as WebSocket, { app, secret: t.config.JWT_SECRET ?? '', sessionCheckMs: 60_000, keepaliveMs: 60_000, joined: () => undefined, ended: () => undefined });
    fresh.receive({ op: 'auth', accessToken: user.accessToken });
    await until('the new socket closed', () => fresh.closeCode !== null);
    expect(fresh.closeCode).toBe(1013);
  });
});
