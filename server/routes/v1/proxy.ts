import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { PROXY_ALLOWED_PATHS, PROXY_TARGET_IDS, PROXY_TARGETS, type ProxyTargetId } from '../../exchanges/endpoints';
import { badRequest, HttpError } from '../../lib/http-error';

export interface ProxyOptions {
  /** Upstream hosts (default PROXY_TARGETS: the real exchanges). Tests point them at a local fake. */
  targets?: Partial<Record<ProxyTargetId, string>>;
  /** Per request (default 10 s); past it the answer is 504. */
  timeoutMs?: number;
}

const NAMES: Record<ProxyTargetId, string> = {
  'bitmex-mainnet': 'BitMEX',
  'bitmex-testnet': 'BitMEX testnet',
  'okx-mainnet-testnet': 'okx',
};

/** Response headers worth passing back: the body's type and the exchanges' rate-limit counters. */
const PASS_HEADERS = /^(content-type|x-ratelimit-[a-z0-9-]+|retry-after)$/i;
const MAX_QUERY = 2048;

const isTarget = (t: string): t is ProxyTargetId => (PROXY_TARGET_IDS as string[]).includes(t);

/**
 * `/v1/proxy/bitmex-mainnet`, `/v1/proxy/bitmex-testnet`, `/v1/proxy/okx-mainnet-testnet` (SPEC §7):
 * browsers cannot call these exchanges directly (CORS), so the server forwards **only** GETs of the
 * allow-listed public market paths to the fixed hosts (DESIGN §5: no open proxy; anything else is
 * 400). The exchange's status and body pass through unchanged — its error shapes included — so the
 * adapters parse exactly what the exchange sends. OKX demo (testnet) is the same host plus the
 * `x-simulated-trading: 1` header, which is the one request header passed on.
 */
export const proxyRoutes: FastifyPluginAsync<ProxyOptions> = async (app, opts) => {
  const timeoutMs = opts.timeoutMs ?? 10_000;

  const forward = async (target: ProxyTargetId, path: string, query: string, headers: Record<string, string | string[] | undefined>, reply: FastifyReply) => {
    const host = opts.targets?.[target] ?? PROXY_TARGETS[target];
    const out: Record<string, string> = { accept: 'application/json', 'user-agent': 'crypto-terminal-proxy' };
    const simulated = headers['x-simulated-trading'];
    if (target === 'okx-mainnet-testnet' && (simulated === '1' || simulated === '0')) out['x-simulated-trading'] = simulated;
    let res: Response;
    try {
      res = await fetch(`${host}${path}${query}`, { headers: out, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    } catch (err) {
      if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
        throw new HttpError(504, `${NAMES[target]} did not answer within ${Math.round(timeoutMs / 100) / 10} s`);
      }
      const reason = err instanceof Error ? ((err.cause instanceof Error ? err.cause.message : '') || err.message) : String(err);
      throw new HttpError(502, `Could not reach ${NAMES[target]}: ${reason}`);
    }
    const body = Buffer.from(await res.arrayBuffer());
    for (const [k, v] of res.headers) if (PASS_HEADERS.test(k)) reply.header(k, v);
    reply.header('cache-control', 'no-store');
    return reply.code(res.status).send(body);
  };

  const summary = `Public market data of BitMEX and OKX (browsers cannot call them: CORS). Targets: ${PROXY_TARGET_IDS.join(', ')}; only GET of the allow-listed paths, else 400; 504 after the timeout.`;
  app.all('/*', { schema: { tags: ['market data'], summary } }, async (req, reply) => {
    // Raw path after /v1/proxy: matched exactly, never decoded, so `..` or `%2F` tricks cannot reach other paths.
    const raw = req.raw.url ?? '';
    const q = raw.indexOf('?');
    const full = q < 0 ? raw : raw.slice(0, q);
    const query = q < 0 ? '' : raw.slice(q);
    const rest = full.replace(/^\/v1\/proxy/, '');
    const slash = rest.indexOf('/', 1);
    const target = slash < 0 ? rest.slice(1) : rest.slice(1, slash);
    const path = slash < 0 ? '' : rest.slice(slash);
    if (!isTarget(target)) throw badRequest(`Unknown proxy: use one of ${PROXY_TARGET_IDS.join(', ')}`);
    if (req.method !== 'GET') throw badRequest(`The ${target} proxy only forwards GET requests`);
    if (!PROXY_ALLOWED_PATHS[target].includes(path)) throw badRequest(`The ${target} proxy does not forward ${path || '/'}: allowed are ${PROXY_ALLOWED_PATHS[target].join(', ')}`);
    if (query.length > MAX_QUERY) throw badRequest('Query string too long');
    return forward(target, path, query, req.headers, reply);
  });
};
