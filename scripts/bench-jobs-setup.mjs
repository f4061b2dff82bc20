// `npm run bench:jobs` (bench-jobs.mjs): what the bench puts on the cluster through the API — flags,
// users, simulator keys with server custody, alerts near the price, managed brackets.
import { ADMIN, api, pool, sleep } from './bench-jobs-cluster.mjs';

export const KEY_PASSWORD = 'bench-jobs-key-password-1';
const USER_PASSWORD = 'bench-jobs-user-password-1';
const FLAGS = ['FF_ENABLE_ALERTS', 'FF_ENABLE_SEMI_AUTO', 'FF_ENABLE_REGISTRATION', 'FF_ENABLE_BYBIT', 'FF_ENABLE_OKX', 'FF_ENABLE_BITMEX'];

const subOf = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sub;

export async function adminToken(base, xsrf) {
  return (await api(base, 'POST', '/v1/auth/signin', { headers: xsrf, body: ADMIN })).accessToken;
}

/** Turns on alerts, semi-auto brackets, registration and the three flagged exchanges. */
export async function enableFlags(base, xsrf, token) {
  const flags = await api(base, 'GET', '/v1/feature-flags', { token });
  for (const name of FLAGS) {
    const flag = flags.find((f) => f.name === name);
    if (flag) await api(base, 'PUT', `/v1/feature-flags/${flag.id}`, { headers: xsrf, token, body: { id: flag.id, name, enabled: true } });
    else await api(base, 'POST', '/v1/feature-flags', { headers: xsrf, token, body: { name, enabled: true } });
  }
}

/** `n` users signed up through the API (registration open), round-robin over the instances. */
export async function signUpUsers(instances, xsrf, n) {
  const users = new Array(n);
  await pool([...Array(n).keys()], 4, async (i) => {
    const base = instances[i % instances.length].base;
    const t = await api(base, 'POST', '/v1/auth/signup', { headers: xsrf, body: { email: `bench-jobs-u${i}@example.com`, password: USER_PASSWORD } });
    users[i] = { i, id: subOf(t.accessToken), token: t.accessToken, refreshToken: t.refreshToken };
  });
  return users;
}

/** A binance simulator key per user (the first `n` users), stored under KEY_PASSWORD, server custody on. */
export async function addKeys(instances, xsrf, users, n) {
  const keys = new Array(n);
  await pool([...Array(n).keys()], 3, async (k) => {
    const base = instances[k % instances.length].base;
    const token = users[k].token;
    const creds = await api(base, 'POST', '/v1/api-keys/sim-credentials', { headers: xsrf, token, body: { exchange: 'binance' } });
    const key = await api(base, 'POST', '/v1/api-keys', { headers: xsrf, token, body: { name: `bench ${k}`, exchange: 'binance', network: 'MAINNET', ...creds, keyPassword: KEY_PASSWORD } });
    await api(base, 'PUT', `/v1/api-keys/${key.id}/server-custody`, { headers: { ...xsrf, 'x-key-password': KEY_PASSWORD }, token });
    keys[k] = { k, id: key.id, apiKey: creds.apiKey, user: users[k] };
  });
  return keys;
}

/** The bench pairs: `SIMB001USDT` … on the four exchanges, interleaved so that consecutive pairs are on different exchanges. */
export function benchPairs(count) {
  const per = Math.ceil(count / 4);
  const out = [];
  for (let n = 1; n <= per; n++) {
    const code = `SIMB${String(n).padStart(3, '0')}`;
    out.push({ exchange: 'binance', wire: `${code}USDT`, symbol: `${code}USDT` });
    out.push({ exchange: 'bybit', wire: `${code}USDT`, symbol: `${code}USDT` });
    out.push({ exchange: 'okx', wire: `${code}-USDT-SWAP`, symbol: `${code}USDT` });
    out.push({ exchange: 'bitmex', wire: `${code}USDT`, symbol: `${code}USDT` });
  }
  return out.slice(0, count);
}

/**
 * `n` alerts over `pairs`, alert i for user i % users, on both sides of the last print, 0.02–0.27 % away
 * (the bench pairs move ~0.12 % a minute: most fire within minutes). Created through the API round-robin.
 */
export async function createAlerts(instances, xsrf, users, pairs, tape, n, concurrency = 16) {
  const out = [];
  let failed = 0;
  await pool([...Array(n).keys()], concurrency, async (i) => {
    const user = users[i % users.length];
    const pair = pairs[i % pairs.length];
    const last = tape.last(pair.exchange, pair.symbol);
    const d = 0.0002 + Math.random() * 0.0025;
    let trigger = Number((i % 2 ? last * (1 + d) : last * (1 - d)).toFixed(3));
    if (trigger === last) trigger = Number((last + (i % 2 ? 0.001 : -0.001)).toFixed(3));
    const body = { exchange: pair.exchange, network: 'MAINNET', symbol: pair.symbol, initialPrice: last, triggerPrice: trigger };
    try {
      const a = await api(instances[i % instances.length].base, 'POST', '/v1/alerts', { headers: xsrf, token: user.token, body });
      out.push({ id: a.id, userId: user.id, exchange: pair.exchange, symbol: pair.symbol, initialPrice: last, triggerPrice: trigger, updatedAt: Date.parse(a.updatedAt) });
    } catch (err) {
      failed += 1;
      if (failed <= 3) console.error(`alert ${i}: ${err.message}`);
    }
  });
  return { alerts: out, failed };
}

/** Binance's (non-bench) symbols with their tick and step, and the last prices. */
export async function binanceMarket(base) {
  const info = await api(base, 'GET', '/sim/binance/fapi/v1/exchangeInfo');
  const symbols = info.symbols
    .filter((s) => !s.symbol.startsWith('SIMB') && s.status === 'TRADING')
    .map((s) => {
      const f = (t) => s.filters.find((x) => x.filterType === t);
      return { symbol: s.symbol, tick: f('PRICE_FILTER').tickSize, step: f('LOT_SIZE').stepSize, minQty: Number(f('LOT_SIZE').minQty) };
    });
  return symbols;
}

// The bench's own price reads weigh on the simulator's address like the server's: one per symbol and instance
// every second at most, so the address's count stays the server's (a target 0.15 % away still lies beyond the fill).
const prices = new Map();
const lastPrice = async (base, symbol, fresh = false) => {
  const id = `${base} ${symbol}`;
  const held = prices.get(id);
  if (held && !fresh && Date.now() - held.at < 1000) return held.price;
  const price = Number((await api(base, 'GET', `/sim/binance/fapi/v1/ticker/24hr?symbol=${symbol}`)).lastPrice);
  prices.set(id, { price, at: Date.now() });
  return price;
};
/** Placements answered 429 are asked again after the answer's Retry-After, as a client does, this many times at most. */
const RETRIES_429 = 20;

/** New token pairs for every user (access tokens live 15 minutes; a full run is longer). */
export async function refreshUsers(base, xsrf, users) {
  await pool(users, 4, async (u) => {
    const t = await api(base, 'POST', '/v1/auth/refresh', { headers: { ...xsrf, authorization: `Bearer ${u.refreshToken}` } });
    u.token = t.accessToken;
    u.refreshToken = t.refreshToken;
  });
}

const decimals = (s) => (s.includes('.') ? s.replace(/0+$/, '').split('.')[1]?.length ?? 0 : 0);
const roundTo = (x, step) => {
  const d = decimals(step);
  return (Math.round(x / Number(step)) * Number(step)).toFixed(d);
};

/**
 * `perKey` managed brackets on each key (bracket b on symbol b: one position per bracket), market entry of
 * ~300 USDT at the last price, two take-profits (+0.15 % half, +0.3 % half), stop at −0.35 %, break-even on: the guards
 * move stops, and cancel what is left when a position closes, while the bench runs.
 */
export async function placeBrackets(instances, xsrf, keys, symbols, perKey, concurrency = 16) {
  const placed = [];
  let failed = 0;
  /** Answers 429 that were waited out and asked again (the address's weight budget, the exchange's holds). */
  let deferred = 0;
  /** Why brackets were refused: the answer's status and message (numbers as N), counted. */
  const reasons = new Map();
  await pool(keys, concurrency, async (key) => {
    const base = instances.filter((i) => i.alive)[key.k % instances.filter((i) => i.alive).length].base;
    for (let b = 0; b < perKey; b++) {
      const s = symbols[b % symbols.length];
      const buy = (key.k + b) % 2 === 0;
      const sign = buy ? 1 : -1;
      const bodyAt = (last) => ({
        symbol: s.symbol,
        side: buy ? 'BUY' : 'SELL',
        qty: roundTo(Math.max(s.minQty, 300 / last) + Number(s.step) / 2, s.step),
        entry: { type: 'MARKET' },
        stopLoss: { triggerPrice: roundTo(last * (1 - sign * 0.0035), s.tick) },
        takeProfits: [
          { price: roundTo(last * (1 + sign * 0.0015), s.tick), qtyPercent: 50 },
          { price: roundTo(last * (1 + sign * 0.003), s.tick), qtyPercent: 50 },
        ],
        managed: { breakEven: true, trail: null },
      });
      let body = bodyAt(await lastPrice(base, s.symbol));
      try {
        // A 429 left nothing live (the product refuses before sending): the same bracket is asked again.
        // A 400 saying a target or the stop is on the wrong side of the entry: the market moved past a price up to
        // a second old (the bench's cache) — as a trader would, it reads the price again and sends the bracket anew.
        let r;
        let moved = 0;
        for (let attempt = 0; ; attempt++) {
          try {
            r = await api(base, 'POST', `/v1/trade/${key.id}/brackets`, { headers: { ...xsrf, 'x-key-password': KEY_PASSWORD }, token: key.user.token, body });
            break;
          } catch (err) {
            if (err.status === 400 && /must be (below|above) the entry/.test(String(err.message)) && moved < 2) {
              moved += 1;
              body = bodyAt(await lastPrice(base, s.symbol, true));
              continue;
            }
            if (err.status !== 429 || attempt >= RETRIES_429) throw err;
            deferred += 1;
            await sleep(Math.max(1, Number.isFinite(err.retryAfter) ? err.retryAfter : 5) * 1000 + Math.random() * 1000);
          }
        }
        placed.push({ bracketId: r.bracketId, key, symbol: s.symbol, managed: r.managed });
      } catch (err) {
        failed += 1;
        if (failed <= 3) console.error(`bracket ${key.k}/${b} ${s.symbol}: ${err.message}`);
        const why = String(err.message).replace(/^POST \S+: /, '').replace(/\d+(\.\d+)?/g, 'N').slice(0, 160);
        reasons.set(why, (reasons.get(why) ?? 0) + 1);
      }
    }
  });
  return { placed, failed, deferred, reasons: [...reasons].sort((a, b) => b[1] - a[1]) };
}
