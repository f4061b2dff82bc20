import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendJson } from './context';
import type { SimExchange } from './market/catalogue';

/**
 * What the simulator answers where no route of an exchange matches, and when a request cannot even be
 * read (a body that is not JSON, a content type it does not take): the exchange's own error shape, so a
 * bot files it as "wrong path" or "bad request" — never as an authentication failure (the product's
 * XSRF 403) and never as a socket to reconnect to (DESIGN §3.5: unknown WebSocket paths are refused at
 * the upgrade, with the HTTP 404 the client's handshake reports).
 */
export interface ExchangeErrorShapes {
  notFound(method: string, path: string): { status: number; body: unknown };
  badRequest(message: string): { status: number; body: unknown };
}

const bybitEnvelope = (retCode: number, retMsg: string) => ({ retCode, retMsg, result: {}, retExtInfo: {}, time: Date.now() });

export const EXCHANGE_ERROR_SHAPES: Record<SimExchange, ExchangeErrorShapes> = {
  // Binance: `{code,msg}` with the HTTP status; -1000 UNKNOWN for a path, -1102-style text for an unreadable request.
  binance: {
    notFound: (method, path) => ({ status: 404, body: { code: -1000, msg: `Path ${path}, Method ${method} is invalid` } }),
    badRequest: (message) => ({ status: 400, body: { code: -1102, msg: message } }),
  },
  // Bybit: the v5 envelope; its HTTP 404 is "a wrong path" (bybit.md, HTTP-level errors).
  bybit: {
    notFound: (method, path) => ({ status: 404, body: bybitEnvelope(10404, `Path not found: ${method} ${path}`) }),
    badRequest: (message) => ({ status: 200, body: bybitEnvelope(10001, message) }),
  },
  // OKX: `{code,msg,data}` with string codes.
  okx: {
    notFound: (method, path) => ({ status: 404, body: { code: '404', msg: `Not Found: ${method} ${path}`, data: [] } }),
    badRequest: (message) => ({ status: 400, body: { code: '50002', msg: message, data: [] } }),
  },
  // BitMEX: `{error:{message,name}}`.
  bitmex: {
    notFound: () => ({ status: 404, body: { error: { message: 'Not Found', name: 'HTTPError' } } }),
    badRequest: (message) => ({ status: 400, body: { error: { message, name: 'HTTPError' } } }),
  },
};

/** The path below the exchange's mount, as the real host would see it (`/sim/testnet/okx/api/x?y` → `/api/x`). */
function exchangePath(req: FastifyRequest, prefix: string): string {
  const path = req.url.split('?')[0] ?? req.url;
  const at = path.indexOf(prefix);
  return at >= 0 ? path.slice(at + prefix.length) || '/' : path;
}

/**
 * Answered in `onRequest`, before the body is read (a path nobody serves is a 404 whatever its content
 * type) and before a WebSocket handshake could be upgraded (the client's handshake reports the 404).
 */
const answerEarly = (answer: (req: FastifyRequest) => { status: number; body: unknown }) => async (req: FastifyRequest, reply: FastifyReply) => {
  const { status, body } = answer(req);
  return sendJson(reply, status, body);
};

const ANY_METHOD = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Inside one exchange's scope (`/sim[/testnet]/<exchange>`): every path no route takes answers the
 * exchange's 404, and requests Fastify cannot read answer its 400 (other errors go to the app's handler).
 */
export function registerExchangeFallbacks(scope: FastifyInstance, exchange: SimExchange, prefix: string): void {
  const shapes = EXCHANGE_ERROR_SHAPES[exchange];
  const notFound = (req: FastifyRequest) => shapes.notFound(req.method, exchangePath(req, prefix));
  scope.route({
    method: ANY_METHOD,
    url: '/*',
    exposeHeadRoute: false,
    onRequest: answerEarly(notFound),
    handler: async (req, reply) => answerEarly(notFound)(req, reply),
  });
  scope.setErrorHandler((err: FastifyError, _req, reply) => {
    // Fastify's own refusals of an unreadable request (FST_ERR_CTP_*: bad JSON, media type, empty body, too large).
    if (typeof err.code === 'string' && err.code.startsWith('FST_ERR_CTP_') && (err.statusCode ?? 500) < 500) {
      const { status, body } = shapes.badRequest(err.message);
      return sendJson(reply, err.statusCode === 413 ? 413 : status, body);
    }
    throw err;
  });
}

/** `/sim/<anything else>`: not an exchange, so the simulator's own 404 (and refused upgrades). */
export function registerSimFallback(app: FastifyInstance): void {
  const answer = (req: FastifyRequest) => ({ status: 404, body: { message: `Unknown simulator path ${req.url.split('?')[0]}: use /sim/<binance|bybit|okx|bitmex>/… or /sim/testnet/<exchange>/…` } });
  app.route({
    method: ANY_METHOD,
    url: '/*',
    exposeHeadRoute: false,
    onRequest: answerEarly(answer),
    handler: async (req, reply) => answerEarly(answer)(req, reply),
  });
}
