import { describe, expect, it } from 'vitest';
import { UnlockCache } from './unlock-cache';

const MIN = 60_000;
const HOUR = 60 * MIN;
const CREDS = { apiKey: 'key-1', apiSecret: 'secret-1' };
const ME = { sessionId: 'session-a', userId: 'user-1' };
const PASSWORD = 'key-password-1';

function cache() {
  let t = 1_000_000;
  const c = new UnlockCache({ idleMs: 30 * MIN, maxMs: 8 * HOUR, rememberedMaxMs: 30 * 24 * HOUR, now: () => t });
  return { c, advance: (ms: number) => (t += ms) };
}

describe('UnlockCache', () => {
  it('gives an unlocked key back to its session only, with or without the right password', () => {
    const { c } = cache();
    c.put(ME, 'k1', PASSWORD, CREDS, false);
    expect(c.get('session-a', 'k1')).toEqual(CREDS);
    expect(c.get('session-a', 'k1', PASSWORD)).toEqual(CREDS);
    expect(c.get('session-b', 'k1')).toBeNull();
    expect(c.get('session-a', 'k2')).toBeNull();
  });

  it('a different password does not read the entry (the caller derives, so a wrong one counts) and leaves it in place', () => {
    const { c } = cache();
    c.put(ME, 'k1', PASSWORD, CREDS, false);
    expect(c.get('session-a', 'k1', 'key-password-2')).toBeNull();
    expect(c.get('session-a', 'k1', '')).toBeNull();
    expect(c.get('session-a', 'k1', PASSWORD)).toEqual(CREDS);
  });

  it('ends after the idle time unused; every use restarts that clock', () => {
    const { c, advance } = cache();
    c.put(ME, 'k1', PASSWORD, CREDS, true);
    advance(29 * MIN);
    expect(c.get('session-a', 'k1')).not.toBeNull();
    advance(29 * MIN);
    expect(c.get('session-a', 'k1')).not.toBeNull();
    advance(30 * MIN);
    expect(c.get('session-a', 'k1')).toBeNull();
    expect(c.size).toBe(0);
  });

  it('ends at its hard bound however busy: 8 hours for the page only, 30 days when remembered on the device', () => {
    const { c, advance } = cache();
    c.put(ME, 'page', PASSWORD, CREDS, false);
    c.put(ME, 'device', PASSWORD, CREDS, true);
    for (let h = 0; h < 8 * 4; h++) {
      advance(15 * MIN);
      c.get('session-a', 'device');
      if (h < 31) expect(c.get('session-a', 'page')).not.toBeNull();
    }
    expect(c.get('session-a', 'page')).toBeNull();
    expect(c.get('session-a', 'device')).not.toBeNull();
  });

  it('lock drops one session’s key; dropKey every session’s; dropSession a sign-in’s keys; dropUser all of a user’s', () => {
    const { c } = cache();
    const other = { sessionId: 'session-b', userId: 'user-1' };
    const stranger = { sessionId: 'session-c', userId: 'user-2' };
    const fill = () => {
      c.clear();
      for (const who of [ME, other, stranger]) for (const k of ['k1', 'k2']) c.put(who, k, PASSWORD, CREDS, false);
    };
    const held = () => [ME, other, stranger].flatMap((w) => ['k1', 'k2'].filter((k) => c.get(w.sessionId, k)).map((k) => `${w.sessionId}/${k}`));

    fill();
    c.lock('session-a', 'k1');
    expect(held()).toEqual(['session-a/k2', 'session-b/k1', 'session-b/k2', 'session-c/k1', 'session-c/k2']);
    fill();
    c.dropKey('k1');
    expect(held()).toEqual(['session-a/k2', 'session-b/k2', 'session-c/k2']);
    fill();
    c.dropSession('session-a');
    expect(held()).toEqual(['session-b/k1', 'session-b/k2', 'session-c/k1', 'session-c/k2']);
    fill();
    c.dropUser('user-1');
    expect(held()).toEqual(['session-c/k1', 'session-c/k2']);
  });

  it('holds at most maxEntries, the oldest unlock going first', () => {
    const c = new UnlockCache({ idleMs: HOUR, maxMs: HOUR, rememberedMaxMs: HOUR, maxEntries: 2 });
    for (const k of ['k1', 'k2', 'k3']) c.put(ME, k, PASSWORD, CREDS, false);
    expect([c.get('session-a', 'k1'), c.get('session-a', 'k2'), c.get('session-a', 'k3')].map(Boolean)).toEqual([false, true, true]);
  });

  it('keeps a copy the caller cannot change', () => {
    const { c } = cache();
    const mine = { ...CREDS };
    c.put(ME, 'k1', PASSWORD, mine, false);
    mine.apiSecret = 'changed';
    expect(c.get('session-a', 'k1')?.apiSecret).toBe('secret-1');
  });
});
