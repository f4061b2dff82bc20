// `npm run bench:jobs` (bench-jobs.mjs): what the bench watches — the simulator's trade tape of the alert
// pairs (to know when a price crossed an alert), and the users' app sockets (`/v1/stream`, to know when a
// fired alert rang).
import WebSocket from 'ws';

/** The product's symbol of an exchange's wire id (OKX `SIMB001-USDT-SWAP` → `SIMB001USDT`). */
export const productSymbol = (exchange, wire) => (exchange === 'okx' ? wire.replace(/-SWAP$/, '').replace('-', '') : wire);

/** Per exchange: the stream path, what to send on open, and the prints in a message as [symbol, price, time]. */
const FEEDS = {
  binance: {
    path: (wires) => `/sim/binance/market/stream?streams=${wires.map((w) => `${w.toLowerCase()}@aggTrade`).join('/')}`,
    subscribe: () => [],
    prints: (m) => (m.data?.e === 'aggTrade' ? [[m.data.s, Number(m.data.p), m.data.T]] : []),
  },
  bybit: {
    path: () => '/sim/bybit/v5/public/linear',
    subscribe: (wires) => chunks(wires, 10).map((c) => JSON.stringify({ op: 'subscribe', args: c.map((w) => `publicTrade.${w}`) })),
    prints: (m) => (typeof m.topic === 'string' && m.topic.startsWith('publicTrade.') ? m.data.map((t) => [t.s, Number(t.p), t.T]) : []),
    ping: JSON.stringify({ op: 'ping' }),
  },
  okx: {
    path: () => '/sim/okx/ws/v5/public',
    subscribe: (wires) => chunks(wires, 20).map((c) => JSON.stringify({ op: 'subscribe', args: c.map((instId) => ({ channel: 'trades', instId })) })),
    prints: (m) => (m.arg?.channel === 'trades' && Array.isArray(m.data) ? m.data.map((t) => [t.instId, Number(t.px), Number(t.ts)]) : []),
    ping: 'ping',
  },
  bitmex: {
    path: (wires) => `/sim/bitmex/realtime?subscribe=${wires.map((w) => `trade:${w}`).join(',')}`,
    subscribe: () => [],
    prints: (m) => (m.table === 'trade' && m.action === 'insert' ? m.data.map((t) => [t.symbol, t.price, Date.parse(t.timestamp)]) : []),
    ping: 'ping',
  },
};

function chunks(list, n) {
  const out = [];
  for (let i = 0; i < list.length; i += n) out.push(list.slice(i, i + n));
  return out;
}

/**
 * The public trades of `pairs` ({ exchange, wire, symbol }) as the simulator prints them, one socket
 * per exchange on a live instance (moved to another when its instance dies: the gap is recorded).
 */
export class Tape {
  constructor(instances, pairs) {
    this.instances = instances;
    this.pairs = pairs;
    /** `${exchange}:${symbol}` → { t: number[], p: number[] } in print order. */
    this.prints = new Map(pairs.map((p) => [`${p.exchange}:${p.symbol}`, { t: [], p: [] }]));
    this.gaps = [];
    this.sockets = new Map();
    this.stopped = false;
    this.pinger = setInterval(() => {
      for (const [exchange, ws] of this.sockets) if (FEEDS[exchange].ping && ws.readyState === WebSocket.OPEN) ws.send(FEEDS[exchange].ping);
    }, 15_000);
  }

  start() {
    for (const exchange of new Set(this.pairs.map((p) => p.exchange))) this.connect(exchange, 0, null);
  }

  connect(exchange, from, gapStart) {
    const inst = [...this.instances.slice(from), ...this.instances.slice(0, from)].find((i) => i.alive);
    if (!inst || this.stopped) return;
    const wires = this.pairs.filter((p) => p.exchange === exchange).map((p) => p.wire);
    const ws = new WebSocket(`${inst.base.replace('http', 'ws')}${FEEDS[exchange].path(wires)}`);
    this.sockets.set(exchange, ws);
    let heard = false;
    ws.on('open', () => FEEDS[exchange].subscribe(wires).forEach((m) => ws.send(m)));
    ws.on('message', (raw) => {
      let m;
      try {
        m = JSON.parse(raw.toString());
      } catch {
        return; // pong
      }
      for (const [wire, price, t] of FEEDS[exchange].prints(m)) {
        const s = this.prints.get(`${exchange}:${productSymbol(exchange, wire)}`);
        if (!s) continue;
        if (!heard && gapStart !== null) this.gaps.push({ exchange, ms: Date.now() - gapStart });
        heard = true;
        s.t.push(t);
        s.p.push(price);
      }
    });
    ws.on('error', () => {});
    ws.on('close', () => {
      if (this.stopped) return;
      const next = (this.instances.indexOf(inst) + 1) % this.instances.length;
      setTimeout(() => this.connect(exchange, next, gapStart ?? Date.now()), 200);
    });
  }

  /** Last price of every pair (NaN before its first print). */
  last(exchange, symbol) {
    const s = this.prints.get(`${exchange}:${symbol}`);
    return s && s.p.length ? s.p[s.p.length - 1] : NaN;
  }

  /** The first print at or after `from` (ms) that crosses the alert, or null: [time, price]. */
  firstCrossing(alert, from, to = Infinity) {
    const s = this.prints.get(`${alert.exchange}:${alert.symbol}`);
    if (!s) return null;
    const up = alert.initialPrice < alert.triggerPrice;
    for (let i = 0; i < s.t.length; i++) {
      const t = s.t[i];
      if (t < from || t > to) continue;
      if (up ? s.p[i] >= alert.triggerPrice : s.p[i] <= alert.triggerPrice) return [t, s.p[i]];
    }
    return null;
  }

  stop() {
    this.stopped = true;
    clearInterval(this.pinger);
    for (const ws of this.sockets.values()) ws.terminate();
  }
}

/**
 * `n` app sockets (`/v1/stream`): socket j is user j % users.length's, on instance j % instances.length.
 * Every pushed alert notification is recorded: per alert id, the receive times per socket; the same
 * alert twice on one socket is a duplicate.
 */
export class Sockets {
  constructor() {
    this.all = [];
    /** alert id → { userId, firedAt (the notification's createdAt), got: Map<socketIndex, ms> } */
    this.alerts = new Map();
    this.duplicates = 0;
    this.jobPushes = 0;
    this.closedEarly = 0;
    this.closeCodes = {};
  }

  async open(instances, users, n, concurrency = 100) {
    let next = 0;
    const one = async () => {
      while (next < n) {
        const j = next++;
        const user = users[j % users.length];
        const inst = instances[j % instances.length];
        await this.connect(j, user, inst);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, one));
    this.openedAt = Date.now();
  }

  connect(j, user, inst) {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${inst.base.replace('http', 'ws')}/v1/stream`);
      const s = { j, user, inst, ws, open: false, seen: new Set() };
      const timer = setTimeout(() => reject(new Error(`socket ${j} did not authenticate in 30 s`)), 30_000);
      ws.on('open', () => ws.send(JSON.stringify({ op: 'auth', accessToken: user.token })));
      ws.on('message', (raw) => {
        const m = JSON.parse(raw.toString());
        if (m.type === 'authenticated' && !s.open) {
          s.open = true;
          this.all.push(s);
          clearTimeout(timer);
          resolve(s);
        } else if (m.type === 'notifications') this.onNotifications(s, m);
      });
      ws.on('error', () => {});
      ws.on('close', (code) => {
        if (s.open && s.inst.alive && !this.closing) {
          this.closedEarly += 1;
          this.closeCodes[code] = (this.closeCodes[code] ?? 0) + 1;
          this.firstClose ??= Date.now();
        }
        s.open = false;
        s.closedAt = Date.now();
      });
    });
  }

  onNotifications(s, m) {
    const at = Date.now();
    for (const n of m.items) {
      if (n.kind !== 'alert') {
        if (!m.resume) this.jobPushes += 1;
        continue;
      }
      if (s.seen.has(n.id)) this.duplicates += 1;
      s.seen.add(n.id);
      let a = this.alerts.get(n.refId);
      if (!a) this.alerts.set(n.refId, (a = { userId: s.user.id, firedAt: Date.parse(n.createdAt), got: new Map(), resumeOnly: true }));
      if (a.got.has(s.j)) continue;
      a.got.set(s.j, at);
      if (!m.resume) a.resumeOnly = false;
    }
  }

  /** Authenticates every open socket again with its user's (refreshed) token, as the app does before a token expires. */
  reauth() {
    for (const s of this.all) if (s.open) s.ws.send(JSON.stringify({ op: 'auth', accessToken: s.user.token }));
  }

  /** Sockets of a user open at `t` (opened, and not closed before `t`). */
  openAt(userId, t) {
    return this.all.filter((s) => s.user.id === userId && (s.closedAt === undefined || s.closedAt > t));
  }

  close() {
    this.closing = true;
    for (const s of this.all) s.ws.terminate();
  }
}
