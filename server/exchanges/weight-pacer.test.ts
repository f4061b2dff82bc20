import { describe, expect, it } from 'vitest';
import { WeightPacer } from './weight-pacer';

describe('WeightPacer: the request weight of one address', () => {
  it('lets reads through up to the budget, then refuses one that would wait past the limit; orders are only counted', async () => {
    let now = 1_717_200_000_000; // on a minute boundary
    const pacer = new WeightPacer('binance', 100, 60_000, () => now);
    await pacer.read(40);
    await pacer.read(40);
    await expect(pacer.read(40)).rejects.toMatchObject({ status: 429, retryAfterSeconds: 60, message: /reads wait 60 s/ });
    // Orders and cancels never wait, whatever is used.
    pacer.write(50);
    expect(pacer.usedNow).toBe(130);
    // The next window starts empty.
    now += 60_000;
    await pacer.read(40);
    expect(pacer.usedNow).toBe(40);
  });

  it("follows the exchange's count when it is higher (other processes on the address)", async () => {
    const now = 1_717_200_030_000;
    const pacer = new WeightPacer('binance', 100, 60_000, () => now);
    await pacer.read(10);
    pacer.observe(95);
    pacer.observe(20); // a lower count is an older answer
    expect(pacer.usedNow).toBe(95);
    await expect(pacer.read(10)).rejects.toMatchObject({ status: 429 });
  });

  it('a read waits for the next window when it is near', async () => {
    const pacer = new WeightPacer('binance', 10, 400, Date.now, 10_000);
    await pacer.read(10);
    const window = Math.floor(Date.now() / 400);
    await pacer.read(5);
    expect(Math.floor(Date.now() / 400)).toBeGreaterThan(window);
    expect(pacer.usedNow).toBeLessThanOrEqual(10);
  });

  it('background reads leave a third of the budget to reads someone waits for, and wait for their window however far', async () => {
    const pacer = new WeightPacer('binance', 90, 60_000, () => 1_717_200_000_000);
    await pacer.read(55, 'background');
    let read = false;
    void pacer.read(10, 'background').then(() => (read = true));
    await pacer.read(30);
    await new Promise((r) => setTimeout(r, 50));
    expect([read, pacer.usedNow]).toEqual([false, 85]);
  });

  it('room: waits, counting nothing, until the window has room for the whole weight', async () => {
    const pacer = new WeightPacer('binance', 30, 2000, Date.now, 10_000);
    const window = Math.floor(Date.now() / 2000);
    await pacer.read(15, 'background');
    // 15 of the background share's 20 used: room for 4, not for 10 (until the next window).
    await pacer.room(4, 'background');
    if (Math.floor(Date.now() / 2000) === window) expect(pacer.usedNow).toBe(15);
    await pacer.room(10, 'background');
    expect(Math.floor(Date.now() / 2000)).toBeGreaterThan(window);
    expect(pacer.usedNow).toBe(0);
  });
});
