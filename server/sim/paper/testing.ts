/** Test support shared by the paper venues' tests: one simulator per test file, fixtures, private sockets. */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import { afterAll, beforeAll } from 'vitest';
import type { SimPluginOptions } from '../index';
import { connectWs, FIXTURES_DIR, latestSim, simTestKey, startSim, type SimServer, type WsProbe } from '../testing';

export interface FileSim extends SimServer {
  /** A socket on the simulator (`path` below its ws root), closed after the file's tests. */
  connect(path: string): Promise<WsProbe>;
}

/**
 * The simulator of a test file: started before its tests (then `setup` runs, e.g. to build a ccxt
 * client on `sim.base`), closed after them with the sockets `connect` opened. Use it as `startSim`'s
 * server: `sim.app`, `sim.ws`, `sim.base`.
 */
export function simForFile(opts: SimPluginOptions = {}, setup?: (sim: SimServer) => Promise<void>): FileSim {
  let server: SimServer | null = null;
  const probes: WsProbe[] = [];
  const started = (): SimServer => {
    if (!server) throw new Error('the simulator starts in beforeAll');
    return server;
  };
  beforeAll(async () => {
    server = await startSim(opts);
    await setup?.(server);
  });
  afterAll(async () => {
    for (const p of probes) p.close();
    await server?.close();
  });
  return {
    get app() {
      return started().app;
    },
    get base() {
      return started().base;
    },
    get ws() {
      return started().ws;
    },
    close: () => started().close(),
    async connect(path) {
      const probe = await connectWs(`${started().ws}${path}`);
      probes.push(probe);
      return probe;
    },
  };
}

/**
 * A ccxt client's credentials for sim key `apiKey` (OKX's passphrase too), rate limiting off: minted on
 * the simulator started last (`simTestKey`), or on `app`'s.
 */
export function ccxtKey(apiKey: string, app: FastifyInstance = latestSim().app) {
  const key = simTestKey(app, apiKey);
  return { apiKey, secret: key.secret, password: key.passphrase, enableRateLimit: false };
}

/** The names of an exchange's request fixtures (`*.request.json`, `*.request.doc.json`), sorted. */
export function requestFixtures(exchange: string): string[] {
  return readdirSync(path.join(FIXTURES_DIR, exchange))
    .filter((f) => /\.request(\.doc)?\.json$/.test(f))
    .sort();
}

/** A signed request fixture of tests/fixtures/exchanges (method, path, JSON body). */
export interface RequestFixture<M extends string = 'GET' | 'POST', B = Record<string, unknown>> {
  method: M;
  path: string;
  body: B;
}

type Msg = Record<string, unknown>;

/** A raw socket that keeps every message (a text `pong` as `{ pong: true }`) and waits for one that matches. */
export async function openSocket(url: string, headers: Record<string, string> = {}): Promise<{ ws: WebSocket; messages: Msg[]; next: (pred: (m: Msg) => boolean, ms?: number) => Promise<Msg> }> {
  const ws = new WebSocket(url, { headers });
  const messages: Msg[] = [];
  ws.on('message', (d) => {
    const t = String(d);
    messages.push(t === 'pong' ? { pong: true } : (JSON.parse(t) as Msg));
  });
  await new Promise((r, j) => {
    ws.once('open', r);
    ws.once('error', j);
  });
  const next = async (pred: (m: Msg) => boolean, ms = 3_000) => {
    const end = Date.now() + ms;
    for (;;) {
      const m = messages.find(pred);
      if (m) return m;
      if (Date.now() > end) throw new Error(`timed out: ${JSON.stringify(messages.slice(-4))}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { ws, messages, next };
}
