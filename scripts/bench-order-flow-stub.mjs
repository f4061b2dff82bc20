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

  /** One diff: the touch may move a tick (staying within ±15 of where it began), levels near it change. */
  function nextDiff() {
    const b = [];
    const a = [];
    const r = rand();
    const step = r < 0.1 && mid < start + 15 ? 1 : r > 0.9 && mid > start - 15 ? -1 : 0;
    if (step === 1) {
      mid += 1;
      asks.delete(mid);
      a.push(`["${price(mid)}","0"]`);
      const s = size();
      bids.set(mid, s);
      b.push(`["${price(mid)}","${s}"]`);
    } else if (step === -1) {
      bids.delete(mid);
      b.push(`["${price(mid)}","0"]`);
      mid -= 1;
      const s = size();
      asks.set(mid + 1, s);
      a.push(`["${price(mid + 1)}","${s}"]`);
    }
    for (let k = 0; k < params.levelsPerUpdate; k++) {
      // Near the touch more often than deep: 0–59 ticks away, skewed to the front.
      const away = Math.floor(rand() * rand() * 60);
      const remove = away > 0 && rand() < 0.1;
      const s = remove ? '0' : size();
      if (k % 2 === 0) {
        const t = mid - away;
        if (remove) bids.delete(t);
        else bids.set(t, s);
        b.push(`["${price(t)}","${s}"]`);
      } else {
        const t = mid + 1 + away;
        if (remove) asks.delete(t);
        else asks.set(t, s);
        a.push(`["${price(t)}","${s}"]`);
      }
    }
    const U = updateId + 1;
    const pu = updateId;
    updateId += 1 + Math.floor(rand() * 3);
    const now = Date.now();
    return `{"e":"depthUpdate","E":${now},"T":${now},"s":"${params.symbol}","U":${U},"u":${updateId},"pu":${pu},"b":[${b.join(',')}],"a":[${a.join(',')}]}`;
  }

  let tradeId = 5_000_000;
  /** One aggTrade at the touch, `time` apart from the previous one (no two within the tape's 5 ms aggregation). */
  function nextTrade(time) {
    const sell = rand() < 0.5;
    tradeId += 1;
    return `{"e":"aggTrade","E":${time},"a":${tradeId},"s":"${params.symbol}","p":"${price(sell ? mid : mid + 1)}","q":"${size()}","f":${tradeId},"l":${tradeId},"T":${time},"m":${sell}}`;
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
