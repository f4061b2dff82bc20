/**
 * Issue 26 §2: a guard waiting for its break-even price reads the jobs' ticker feed, not the exchange, while
 * the feed is live; the exchange's last price is asked for the first look, once the feed says the stop is
 * allowed (to confirm), and every time while the feed is down.
 */
import { describe, expect, it } from 'vitest';
import { dec, str } from '../../../src/api/contracts/decimal';
import { GuardPrice } from './guard-price';

function fakeFeed(price: number) {
  const state = { live: true, price };
  return {
    state,
    feed: {
      watch: () => () => undefined,
      lastPrice: () => (state.live ? state.price : null),
      isLive: () => state.live,
    },
  };
}

describe('a guard waiting for its break-even price', () => {
  it('asks the exchange nothing while the feed is live and below break-even (long)', async () => {
    const { feed, state } = fakeFeed(64_000);
    let rest = 0;
    const price = new GuardPrice(feed, 'binance', 'BTCUSDT', true, async () => {
      rest += 1;
      return '64000';
    });
    // The first look is the exchange's (the feed may lag the move that filled the target); then only the feed.
    for (let i = 0; i < 20; i++) expect((await price.allowsStop(dec('64100'), true)).ok).toBe(false);
    expect(rest).toBe(1);
    // The feed goes above break-even: the exchange's own price confirms, once.
    state.price = 64_200;
    const seen = await price.allowsStop(dec('64100'), true);
    expect(rest).toBe(2);
    expect(seen.ok).toBe(false); // the exchange still says 64000: the stop would fire, so it waits
    expect(str(seen.now)).toBe('64000');
  });

  it('asks the exchange each time while the feed is down, and on mainnet only reads the feed', async () => {
    const { feed, state } = fakeFeed(64_000);
    state.live = false;
    let rest = 0;
    const price = new GuardPrice(feed, 'binance', 'BTCUSDT', true, async () => {
      rest += 1;
      return '63000';
    });
    for (let i = 0; i < 3; i++) await price.allowsStop(dec('64100'), true);
    expect(rest).toBe(3);
    const testnet = new GuardPrice(fakeFeed(64_000).feed, 'binance', 'BTCUSDT', false, async () => {
      rest += 1;
      return '65000';
    });
    expect((await testnet.allowsStop(dec('64100'), true)).ok).toBe(true);
    expect(rest).toBe(4);
  });

  it('a short waits for the price to fall below its stop, from the feed', async () => {
    const { feed } = fakeFeed(64_000);
    let rest = 0;
    const price = new GuardPrice(feed, 'okx', 'BTCUSDT', true, async () => {
      rest += 1;
      return '63000';
    });
    expect((await price.allowsStop(dec('62900'), false)).ok).toBe(false);
    expect((await price.allowsStop(dec('62900'), false)).ok).toBe(false);
    expect(rest).toBe(1);
    expect((await price.allowsStop(dec('64100'), false)).ok).toBe(true);
    expect(rest).toBe(2);
  });
});
