// The order flow the `order-flow` bench scenario feeds the page (scripts/bench-order-flow.mjs): Binance
// USDⓈ-M's diff depth (`<sym>@depth@100ms` on `/public/ws`), its REST snapshot (`/fapi/v1/depth`) and
// aggTrades (`<sym>@aggTrade` on `/market/ws`), answered inside the page at exact rates. The simulator
// serves depth every 100 ms at most (10 a second, BOOK_VERSION_MS) and trades every 250 ms
// (`pushIntervalMs`), below the 50 book updates and 100 trades a second issue 25 §2 budgets.
//
// In the page, not through Playwright's `routeWebSocket`: that carries every frame over the DevTools
// protocol and runs its own code on the page's thread for each one, a cost no real socket has. Here a
// message costs the page what a socket's does — a `message` event carrying a string — plus the few
// microseconds the generator takes to write it (its allocations are told apart by its `sourceURL`).

/**
 * Installed before the app's scripts (`page.addInitScript`). `params`: `{ symbol, midTicks, tick,
 * decimals, depthPerSecond, tradesPerSecond, levelsPerUpdate }`. Counts what it delivered in
 * `window.__orderFlowBench` (`depth`, `trades`, `snapshots`, `sockets`).
 */
export function fakeOrderFlowStreams(params) {
  const Native = window.WebSocket;
  const nativeFetch = window.fetch.bind(window);
  const sym = params.symbol.toLowerCase();
  const depthUrl = new RegExp(`/public/ws/${sym}@depth@100ms$`);
  const tradeUrl = new RegExp(`/market/ws/${sym}@aggTrade$`);
  const bench = { depth: 0, trades: 0, snapshots: 0, sockets: 0 };
  window.__orderFlowBench = bench;

  // Deterministic pseudo-random numbers (mulberry32).
  let seed = 25;
  const rand = () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const price = (ticks) => (ticks * params.tick).toFixed(params.decimals);
  const size = () => (0.001 + rand() * rand() * 25).toFixed(3);

  // The book: integer ticks → size text, per side; the best bid is `mid`, the best ask `mid + 1`.
  const bids = new Map();
  const asks = new Map();
  const start = params.midTicks;
  let mid = start;
  for (let i = 0; i < 400; i++) {
    bids.set(mid - i, size());
    asks.set(mid + 1 + i, size());
  }
  let updateId = 1_000_000;

  /**
   * One diff, written now and delivered later: the touch may move a tick (`force` says which way, else at random
   * within ±15 of where it began), levels near it change. Returns its levels as the message writes them and as
   * the book changes them (`[side, tick, size]`, side 0 bids, size "0" removes).
   */
  function diffBody(force = 0) {
    const b = [];
    const a = [];
    const changes = [];
    const set = (side, t, sz) => {
      changes.push([side, t, sz]);
      (side === 0 ? b : a).push(`["${price(t)}","${sz}"]`);
      const book = side === 0 ? bids : asks;
      if (sz === '0') book.delete(t);
      else book.set(t, sz);
    };
    const r = rand();
    const step = force || (r < 0.1 && mid < start + 15 ? 1 : r > 0.9 && mid > start - 15 ? -1 : 0);
    if (step === 1) {
      mid += 1;
      set(1, mid, '0');
      set(0, mid, size());
    } else if (step === -1) {
      set(0, mid, '0');
      mid -= 1;
      set(1, mid + 1, size());
    }
    for (let k = 0; k < params.levelsPerUpdate; k++) {
      // Near the touch more often than deep: 0–59 ticks away, skewed to the front.
      const away = Math.floor(rand() * rand() * 60);
      const remove = away > 0 && rand() < 0.1;
      const sz = remove ? '0' : size();
      if (k % 2 === 0) set(0, mid - away, sz);
      else set(1, mid + 1 + away, sz);
    }
    return { levels: `"b":[${b.join(',')}],"a":[${a.join(',')}]}`, changes, mid };
  }

  // The diffs and prints are written before the run, as a socket's frames arrive already written: delivering one
  // costs the page its message string and the product's handling, not the generator's string building (which
  // allocated more than the product, on the page's thread). The walk of the touch ends where it began, so the cycle
  // repeats on a consistent book; the book the REST snapshot serves follows the diffs delivered.
  const initial = [new Map(bids), new Map(asks)];
  const bodies = [];
  for (let i = 0; i < 3000; i++) bodies.push(diffBody());
  while (mid !== start) bodies.push(diffBody(mid < start ? 1 : -1));
  for (const [t, sz] of initial[0]) bids.set(t, sz);
  for (const [t, sz] of initial[1]) asks.set(t, sz);
  for (const t of [...bids.keys()]) if (!initial[0].has(t)) bids.delete(t);
  for (const t of [...asks.keys()]) if (!initial[1].has(t)) asks.delete(t);
  mid = start;
  // A print is at the touch of its moment: the prices around the start, and sizes, written once.
  const prices = new Map();
  for (let t = start - 16; t <= start + 17; t++) prices.set(t, price(t));
  const printSizes = Array.from({ length: 997 }, () => size());
  const printSides = Array.from({ length: 991 }, () => rand() < 0.5);
  let diffAt = 0;
  function nextDiff() {
    const body = bodies[diffAt % bodies.length];
    diffAt += 1;
    for (const [side, t, sz] of body.changes) {
      const book = side === 0 ? bids : asks;
      if (sz === '0') book.delete(t);
      else book.set(t, sz);
    }
    mid = body.mid;
    const U = updateId + 1;
    const pu = updateId;
    updateId += 1 + (diffAt % 3);
    const now = Date.now();
    return `{"e":"depthUpdate","E":${now},"T":${now},"s":"${params.symbol}","U":${U},"u":${updateId},"pu":${pu},${body.levels}`;
  }

  let tradeId = 5_000_000;
  /** One aggTrade at the touch, `time` apart from the previous one (no two within the tape's 5 ms aggregation). */
  function nextTrade(time) {
    tradeId += 1;
    const sell = printSides[tradeId % printSides.length];
    const p = prices.get(sell ? mid : mid + 1);
    return `{"e":"aggTrade","E":${time},"a":${tradeId},"s":"${params.symbol}","p":"${p}","q":"${printSizes[tradeId % printSizes.length]}","f":${tradeId},"l":${tradeId},"T":${time},"m":${sell}}`;
  }

  function snapshot(limit) {
    const side = (map, desc) =>
      [...map.entries()]
        .sort((x, y) => (desc ? y[0] - x[0] : x[0] - y[0]))
        .slice(0, limit)
        .map(([t, s]) => [price(t), s]);
    bench.snapshots += 1;
    const now = Date.now();
    return { lastUpdateId: updateId, E: now, T: now, bids: side(bids, true), asks: side(asks, false) };
  }

  const open = new Set();
  /** One timer drives both streams; each delivery catches up to the exact count due by now. */
  let pump = null;
  function startPump() {
    if (pump) return;
    const t0 = performance.now();
    const wall0 = Date.now();
    let depthSent = 0;
    let tradesSent = 0;
    pump = setInterval(() => {
      const elapsed = performance.now() - t0;
      const depthDue = Math.floor((elapsed * params.depthPerSecond) / 1000);
      const tradesDue = Math.floor((elapsed * params.tradesPerSecond) / 1000);
      for (let k = depthSent; k < depthDue; k++) {
        const text = nextDiff();
        for (const s of open) if (s.kind === 'depth') s.deliver(text);
      }
      bench.depth += depthDue - depthSent;
      depthSent = depthDue;
      for (let k = tradesSent; k < tradesDue; k++) {
        const text = nextTrade(wall0 + Math.round((k * 1000) / params.tradesPerSecond));
        for (const s of open) if (s.kind === 'trade') s.deliver(text);
      }
      bench.trades += tradesDue - tradesSent;
      tradesSent = tradesDue;
    }, 5);
  }

  class FakeBinanceSocket {
    constructor(url, kind) {
      this.url = url;
      this.kind = kind;
      this.readyState = 0;
      this.onopen = this.onmessage = this.onclose = this.onerror = null;
      bench.sockets += 1;
      setTimeout(() => {
        if (this.readyState !== 0) return;
        this.readyState = 1;
        open.add(this);
        startPump();
        this.onopen?.(new Event('open'));
      }, 0);
    }
    deliver(data) {
      this.onmessage?.(new MessageEvent('message', { data }));
    }
    send() {
      // Raw streams take no requests.
    }
    close() {
      open.delete(this);
      this.readyState = 3;
    }
  }
  function BenchWebSocket(url, protocols) {
    const u = String(url);
    if (depthUrl.test(u)) return new FakeBinanceSocket(u, 'depth');
    if (tradeUrl.test(u)) return new FakeBinanceSocket(u, 'trade');
    return new Native(url, protocols);
  }
  BenchWebSocket.prototype = Native.prototype;
  for (const k of ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED']) BenchWebSocket[k] = Native[k];
  window.WebSocket = BenchWebSocket;

  window.fetch = (input, init) => {
    const u = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const m = /\/fapi\/v1\/depth\?(.*)$/.exec(u);
    const query = m ? new URLSearchParams(m[1]) : null;
    if (!query || query.get('symbol') !== params.symbol) return nativeFetch(input, init);
    const body = JSON.stringify(snapshot(Number(query.get('limit') ?? 1000)));
    return Promise.resolve(new Response(body, { status: 200, headers: { 'content-type': 'application/json' } }));
  };
}
