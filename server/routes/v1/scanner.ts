import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type WebSocket from 'ws';
import { EXCHANGE_DISPLAY_NAMES, EXCHANGE_IDS, errorResponseSchema, type ExchangeId } from '../../../src/api/contracts/common';
import { EXCHANGE_FEATURE_FLAGS, type FeatureFlagKey } from '../../../src/api/contracts/feature-flags';
import {
  packRowPatches,
  SCANNER_DISABLED_MESSAGE,
  scannerClientMessageSchema,
  scannerExchangeSnapshotSchema,
  scannerParamsSchema,
  scannerQuerySchema,
  scannerSnapshotSchema,
  type ScannerExchangeStatus,
  type ScannerRow,
  type ScannerRowPatch,
  type ScannerServerMessage,
} from '../../../src/api/contracts/scanner';
import { forbidden, HttpError, notFound } from '../../lib/http-error';
import { AUTH_REQUIRED } from '../../plugins/authenticate';
import type { ScannerEvent, ScannerService } from '../../services/scanner/scanner-service';

export interface ScannerRoutesOptions {
  scanner: ScannerService;
  isFlagEnabled: (key: FeatureFlagKey) => Promise<boolean>;
  /** Checks an access token (the stream's first message) as `requireUser` checks the header. */
  authenticate: (accessToken: string) => Promise<unknown>;
  /** How often a stream sends the changed rows (default 500 ms: at most two pushes a second). */
  pushIntervalMs?: number;
  /** How often open streams re-read FF_ENABLE_SCANNER (default 15 s): turning it off closes them. */
  flagCheckMs?: number;
}

const errors = { 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema, 502: errorResponseSchema, 504: errorResponseSchema };
const security = [{ bearerAuth: [] }];
const tags = ['scanner'];
/** A client that stops reading is cut off rather than buffered for without end. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
const AUTH_TIMEOUT_MS = 10_000;

const STREAM_DESCRIPTION = [
  'WebSocket (same origin). Send `{"op":"auth","accessToken":"…"}` first, then `{"op":"subscribe","exchanges":["binance","bybit"]}` (empty = every enabled exchange; a later subscribe replaces the set).',
  'The server answers `{"type":"ready"}`, then per exchange a `snapshot` (every row and the status), then `update` messages with only the changed fields of the changed rows (at most two a second) as blocks `{"fields":["last","changePercent"],"rows":[["BTCUSDT",67583.4,-0.61],…]}`, `status` when an exchange goes stale, fails or recovers, and `snapshot` again when its pair list changed.',
  'Refusals come as `{"type":"error","status","message"}` before the server closes: 401 (send a fresh token), 403 (FF_ENABLE_SCANNER is off), 400 (a message it cannot read).',
].join('\n\n');

/**
 * `/v1/scanner` (issue 14): every perpetual of the enabled exchanges with 24 h ticker, funding, open
 * interest and ATR %, from `ScannerService` (fetched once per exchange for everyone). Signed in
 * (401) and behind FF_ENABLE_SCANNER (403 naming it). `GET /` answers what the exchanges that
 * could answer have (the others' statuses say why not); `GET /{exchange}` is one exchange, 502/504
 * naming it when it cannot be loaded; `/stream` pushes the changes.
 */
export const scannerRoutes: FastifyPluginAsyncZod<ScannerRoutesOptions> = async (app, opts) => {
  const assertEnabled = async () => {
    if (!(await opts.isFlagEnabled('FF_ENABLE_SCANNER'))) throw forbidden(SCANNER_DISABLED_MESSAGE);
  };
  const onRequest = [app.requireUser, assertEnabled];
  const enabledExchanges = async (): Promise<ExchangeId[]> => {
    const flags = await Promise.all(EXCHANGE_IDS.map(async (id) => (EXCHANGE_FEATURE_FLAGS[id] ? opts.isFlagEnabled(EXCHANGE_FEATURE_FLAGS[id]) : true)));
    return EXCHANGE_IDS.filter((_, k) => flags[k]);
  };

  app.get(
    '',
    {
      onRequest,
      schema: {
        tags,
        summary: 'Every perpetual of the enabled exchanges (or those asked for): 24 h ticker, funding, open interest, ATR %',
        description: 'An exchange that cannot answer is left out of `rows`; its entry in `exchanges` says why (state `error`, or `stale` with the last rows).',
        security,
        querystring: scannerQuerySchema,
        response: { 200: scannerSnapshotSchema, ...errors },
      },
    },
    async (req) => {
      const enabled = await enabledExchanges();
      const wanted = (req.query.exchanges ?? enabled).filter((id) => enabled.includes(id));
      const results = await Promise.allSettled(wanted.map((id) => opts.scanner.snapshot(id)));
      const rows: ScannerRow[] = [];
      const exchanges: ScannerExchangeStatus[] = results.map((r, k) => {
        if (r.status === 'fulfilled') {
          rows.push(...r.value.rows);
          return r.value.status;
        }
        const message = r.reason instanceof HttpError ? r.reason.message : `Could not load the tickers of ${EXCHANGE_DISPLAY_NAMES[wanted[k]]}`;
        return { exchange: wanted[k], state: 'error', message, tickersAt: null, atrAt: null, live: false };
      });
      return { rows, exchanges };
    },
  );

  app.get(
    '/:exchange',
    {
      onRequest,
      schema: {
        tags,
        summary: "One exchange's perpetuals; 502/504 naming the exchange when it cannot be loaded and nothing is cached",
        security,
        params: scannerParamsSchema,
        response: { 200: scannerExchangeSnapshotSchema, ...errors },
      },
    },
    async (req) => {
      const { exchange } = req.params;
      if (!(await enabledExchanges()).includes(exchange)) throw notFound(`${EXCHANGE_DISPLAY_NAMES[exchange]} is not enabled`);
      return opts.scanner.snapshot(exchange);
    },
  );

  // ------------------------------------------------------------------------------------ stream

  const streams = new Set<{ refuse: (status: number, message: string) => void }>();
  let flagTimer: NodeJS.Timeout | null = null;
  const watchFlag = () => {
    if (flagTimer) return;
    flagTimer = setInterval(() => {
      if (streams.size === 0) return;
      opts.isFlagEnabled('FF_ENABLE_SCANNER').then(
        (on) => {
          if (!on) for (const s of [...streams]) s.refuse(403, SCANNER_DISABLED_MESSAGE);
        },
        () => undefined,
      );
    }, opts.flagCheckMs ?? 15_000);
    flagTimer.unref?.();
  };
  app.addHook('onClose', async () => {
    if (flagTimer) clearInterval(flagTimer);
  });

  // `wsHandler` + a plain `handler` (not `websocket: true`, which hides the route from /docs): the
  // stream is documented, and a plain HTTP GET is told to upgrade.
  app.route({
    method: 'GET',
    url: '/stream',
    schema: { tags, summary: 'Live scanner rows (WebSocket: upgrade required)', description: STREAM_DESCRIPTION, security, response: { 426: errorResponseSchema } },
    handler: async (_req, reply) => reply.code(426).header('upgrade', 'websocket').send({ message: 'Upgrade required: /v1/scanner/stream is a WebSocket' }),
    wsHandler: (socket: WebSocket) => {
      watchFlag();
      let authed = false;
      let closed = false;
      const watching = new Map<ExchangeId, () => void>();
      /** Exchanges whose snapshot went out: their updates may follow. */
      const ready = new Set<ExchangeId>();
      const pending = new Map<ExchangeId, Map<string, ScannerRowPatch>>();

      const send = (message: ScannerServerMessage) => {
        if (closed || socket.readyState !== socket.OPEN) return;
        if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
          socket.terminate();
          return;
        }
        socket.send(JSON.stringify(message));
      };
      const cleanup = () => {
        if (closed) return;
        closed = true;
        clearTimeout(authTimer);
        clearInterval(pushTimer);
        for (const stop of watching.values()) stop();
        watching.clear();
        streams.delete(entry);
      };
      const refuse = (status: number, message: string) => {
        send({ type: 'error', status, message });
        cleanup();
        // 4000 + HTTP status: application close codes (RFC 6455 §7.4.2).
        socket.close(4000 + status, message.slice(0, 120));
      };
      const entry = { refuse };
      streams.add(entry);
      const authTimer = setTimeout(() => refuse(401, AUTH_REQUIRED), AUTH_TIMEOUT_MS);
      const pushTimer = setInterval(() => {
        for (const [exchange, rows] of pending) {
          if (!ready.has(exchange) || rows.size === 0) continue;
          send({ type: 'update', exchange, blocks: packRowPatches([...rows.values()]) });
          rows.clear();
        }
      }, opts.pushIntervalMs ?? 500);

      const onEvent = (exchange: ExchangeId) => (event: ScannerEvent) => {
        if (event.type === 'update') {
          let rows = pending.get(exchange);
          if (!rows) pending.set(exchange, (rows = new Map()));
          for (const patch of event.rows) rows.set(patch.symbol, { ...rows.get(patch.symbol), ...patch });
        } else if (event.type === 'snapshot') {
          pending.get(exchange)?.clear();
          ready.add(exchange);
          send(event);
        } else {
          send(event);
        }
      };

      const subscribe = async (requested: ExchangeId[]) => {
        const enabled = await enabledExchanges();
        const wanted = (requested.length ? requested : enabled).filter((id) => enabled.includes(id));
        for (const [exchange, stop] of watching) {
          if (wanted.includes(exchange)) continue;
          stop();
          watching.delete(exchange);
          ready.delete(exchange);
          pending.delete(exchange);
        }
        for (const exchange of wanted) {
          if (watching.has(exchange) || closed) continue;
          watching.set(exchange, opts.scanner.watch(exchange, onEvent(exchange)));
          opts.scanner.snapshot(exchange).then(
            (snap) => {
              if (!watching.has(exchange)) return;
              pending.get(exchange)?.clear();
              ready.add(exchange);
              send({ type: 'snapshot', ...snap });
            },
            (err: unknown) => {
              if (!watching.has(exchange)) return;
              const message = err instanceof HttpError ? err.message : `Could not load the tickers of ${EXCHANGE_DISPLAY_NAMES[exchange]}`;
              send({ type: 'status', status: { exchange, state: 'error', message, tickersAt: null, atrAt: null, live: false } });
            },
          );
        }
      };

      socket.on('message', (raw, isBinary) => {
        let parsed;
        try {
          parsed = scannerClientMessageSchema.safeParse(JSON.parse(isBinary ? '' : raw.toString()));
        } catch {
          parsed = null;
        }
        if (!parsed?.success) {
          refuse(400, 'Invalid message: send {"op":"auth","accessToken"} then {"op":"subscribe","exchanges":[...]}');
          return;
        }
        const message = parsed.data;
        if (message.op === 'auth') {
          opts
            .authenticate(message.accessToken)
            .then(async () => {
              if (!(await opts.isFlagEnabled('FF_ENABLE_SCANNER'))) return refuse(403, SCANNER_DISABLED_MESSAGE);
              authed = true;
              clearTimeout(authTimer);
              send({ type: 'ready' });
            })
            .catch((err: unknown) => refuse(err instanceof HttpError ? err.status : 401, err instanceof HttpError ? err.message : AUTH_REQUIRED));
          return;
        }
        if (!authed) {
          refuse(401, AUTH_REQUIRED);
          return;
        }
        subscribe(message.exchanges).catch((err: unknown) => app.log.warn({ err }, 'scanner stream: subscribe failed'));
      });
      socket.on('close', cleanup);
      socket.on('error', cleanup);
    },
  });
};
