/**
 * Test support for the simulator (used by *.test.ts here and by other server tests): a sim app on
 * an ephemeral loopback port with a hand-driven clock, fixture loading, JSON "shape" signatures,
 * API keys minted by the sim under test, and a small collecting WebSocket client.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import simPlugin, { type SimPluginOptions } from './index';
import type { SimExchange } from './market/catalogue';
import { simKeyringOf } from './private/control';
import { isSimKey } from './private/credentials';
import type { SimKeyring } from './private/keyring';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The exchange fixtures, in the repository (`tests/fixtures/exchanges/README.md` says where they come from). */
export const FIXTURES_DIR = path.resolve(here, '../../tests/fixtures/exchanges');

/**
 * One exchange fixture, parsed. Call it inside a test (or a hook), never at module load or in a
 * `describe` body: a missing or broken file then fails the one test that needs it, with its path.
 */
export function fixture<T = unknown>(exchange: string, file: string): T {
  const full = path.join(FIXTURES_DIR, exchange, file);
  let text: string;
  try {
    text = readFileSync(full, 'utf8');
  } catch (cause) {
    throw new Error(`cannot read exchange fixture ${full}: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}`, { cause });
  }
  try {
    return JSON.parse(text) as T;
  } catch (cause) {
    throw new Error(`exchange fixture ${full} is not valid JSON: ${String(cause)}`, { cause });
  }
}

/**
 * A type signature of a JSON value: key order, key names and JSON types, recursively. Objects become
 * `{ keys: [[key, sig], ...] }` so that `toEqual` also compares key ORDER. Arrays whose elements
 * share one signature collapse to `[sig]`; mixed arrays (Binance kline rows) stay tuples.
 */
export function shapeOf(v: unknown): unknown {
  if (v === null) return 'null';
  if (Array.isArray(v)) {
    const sigs = v.map(shapeOf);
    const first = JSON.stringify(sigs[0]);
    return sigs.every((s) => JSON.stringify(s) === first) ? (sigs.length ? [sigs[0]] : []) : sigs;
  }
  if (typeof v === 'object') return { keys: Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, shapeOf(x)]) };
  return typeof v;
}

export interface Clock {
  now: () => number;
  set(t: number): void;
  advance(ms: number): void;
}

export function manualClock(t0: number): Clock {
  let t = t0;
  return { now: () => t, set: (x) => (t = x), advance: (ms) => (t += ms) };
}

export interface SimServer {
  app: FastifyInstance;
  /** `http://127.0.0.1:<port>` */
  base: string;
  ws: string;
  close(): Promise<void>;
}

/** The simulators `startSim` started and not yet closed, newest last (`latestSim`). */
const running: SimServer[] = [];

export async function startSim(opts: SimPluginOptions = {}): Promise<SimServer> {
  const app = Fastify({ logger: false });
  await app.register(websocket);
  await app.register(simPlugin, { prefix: '/sim', pushIntervalMs: 20, ...opts });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  const server: SimServer = {
    app,
    base: `http://127.0.0.1:${port}`,
    ws: `ws://127.0.0.1:${port}`,
    close: async () => {
      const i = running.indexOf(server);
      if (i >= 0) running.splice(i, 1);
      await app.close();
    },
  };
  running.push(server);
  return server;
}

/** The simulator `startSim` started last and that is still open (for helpers not given one, e.g. `ccxtKey`). */
export function latestSim(): SimServer {
  const sim = running[running.length - 1];
  if (!sim) throw new Error('no simulator is running: start one (startSim / simForFile) first');
  return sim;
}

/** A sim API key's credentials as a test signs with them. */
export interface SimTestKey {
  apiKey: string;
  secret: string;
  /** Every sim key has one; OKX asks for it. */
  passphrase: string;
  /** Resolves once the simulator's database holds the key (the minting instance knows it at once). */
  stored: Promise<boolean>;
}

const minted = new WeakMap<SimKeyring, Map<string, SimTestKey>>();

/**
 * The key `apiKey` of the simulator mounted in `app` (a standalone sim or the product): minted there
 * with a random secret on first use (`SimKeyring.issue`), the same credentials for every later call on
 * that simulator — so a test names its keys (accounts) and signs synchronously. A name that is not a
 * sim key gets a random secret the simulator never heard of (its invalid-key answer).
 */
export function simTestKey(app: FastifyInstance, apiKey: string, exchange: SimExchange = 'binance'): SimTestKey {
  const ring = simKeyringOf(app);
  if (!ring) throw new Error('simTestKey: no simulator is mounted in this app');
  let keys = minted.get(ring);
  if (!keys) minted.set(ring, (keys = new Map()));
  let key = keys.get(apiKey);
  if (!key) {
    if (isSimKey(apiKey)) {
      const m = ring.issue(exchange, apiKey);
      key = { apiKey, secret: m.secret, passphrase: m.passphrase, stored: m.stored };
    } else {
      key = { apiKey, secret: randomBytes(32).toString('hex'), passphrase: randomBytes(8).toString('hex'), stored: Promise.resolve(false) };
    }
    keys.set(apiKey, key);
  }
  return key;
}

export interface WsProbe {
  socket: WebSocket;
  /** Every frame received so far: parsed JSON, or the raw text when it is not JSON (ping/pong). */
  frames: unknown[];
  send(frame: unknown): void;
  /** Resolves with the first frame (already received or upcoming) matching `pred`. */
  next<T = unknown>(pred: (f: unknown) => boolean, timeoutMs?: number): Promise<T>;
  closed: Promise<number>;
  close(): void;
}

export async function connectWs(url: string): Promise<WsProbe> {
  const socket = new WebSocket(url);
  const frames: unknown[] = [];
  const waiters: Array<{ pred: (f: unknown) => boolean; resolve: (f: unknown) => void }> = [];
  socket.on('message', (raw) => {
    const text = raw.toString();
    let f: unknown = text;
    try {
      f = JSON.parse(text);
    } catch {
      // raw text frames (BitMEX/OKX "pong") stay strings
    }
    frames.push(f);
    for (const w of [...waiters]) {
      if (w.pred(f)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(f);
      }
    }
  });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    frames,
    send: (frame) => socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
    next<T>(pred: (f: unknown) => boolean, timeoutMs = 5000): Promise<T> {
      const hit = frames.find(pred);
      if (hit !== undefined) return Promise.resolve(hit as T);
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(frames).slice(0, 500)}`)), timeoutMs);
        waiters.push({
          pred,
          resolve: (f) => {
            clearTimeout(timer);
            resolve(f as T);
          },
        });
      });
    },
    closed,
    close: () => socket.close(),
  };
}

/** Narrowing helper for frames: `has(f, 'topic', 'kline.1.BTCUSDT')`. */
export function has(f: unknown, key: string, value?: unknown): f is Record<string, unknown> {
  return typeof f === 'object' && f !== null && key in f && (value === undefined || (f as Record<string, unknown>)[key] === value);
}
