import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendJson } from '../context';
import type { SimPrivateOptions } from './index';
import { hmacHex, header, rawTarget, sameSignature, simKeyGrants } from './credentials';

const fail = (reply: FastifyReply, status: number, code: number, msg: string) => sendJson(reply, status, { code, msg });

export type BinanceSigned =
  | { ok: true; apiKey: string; /** Query and body parameters merged; the query wins on a clash (binance.md §0). */ params: Map<string, string> }
  | { ok: false; status: number; code: number; msg: string };

const SIGNATURE_AT_END = /(^|&)signature=([^&]*)$/;

/**
 * Binance's SIGNED check (binance.md §5), shared by every signed sim endpoint: `X-MBX-APIKEY`,
 * then `timestamp` within `recvWindow` (default 5000 ms, server time + 1 s), then `signature` =
 * hex HMAC-SHA256(secret, query string + request body, exactly as sent, without the signature),
 * which must be the last parameter (of the body when there is one, else of the query).
 * `body` is the raw `application/x-www-form-urlencoded` text ('' for none).
 */
export async function verifyBinanceSigned(req: FastifyRequest, body: string, { keys, now }: Pick<SimPrivateOptions, 'keys' | 'now'>): Promise<BinanceSigned> {
  const no = (status: number, code: number, msg: string): BinanceSigned => ({ ok: false, status, code, msg });
  const apiKey = header(req.headers, 'x-mbx-apikey');
  if (!apiKey) return no(401, -2014, 'API-key format invalid.');
  const { query } = rawTarget(req.url);
  let payload: string | null = null;
  let signature = '';
  const inBody = SIGNATURE_AT_END.exec(body);
  const inQuery = SIGNATURE_AT_END.exec(query);
  // Binance signs totalParams = query + body concatenated with no separator (example 3 of the docs).
  if (inBody) {
    payload = query + body.slice(0, inBody.index);
    signature = inBody[2];
  } else if (inQuery) {
    payload = query.slice(0, inQuery.index) + body;
    signature = inQuery[2];
  }
  const params = new Map<string, string>();
  const queryPart = inQuery ? query.slice(0, inQuery.index) : query;
  const bodyPart = inBody ? body.slice(0, inBody.index) : body;
  for (const [k, v] of new URLSearchParams(bodyPart)) if (!params.has(k)) params.set(k, v);
  for (const [k, v] of new URLSearchParams(queryPart)) params.set(k, v);
  const timestamp = params.get('timestamp');
  if (!timestamp || !/^\d{1,15}$/.test(timestamp)) return no(400, -1102, "Mandatory parameter 'timestamp' was not sent, was empty/null, or malformed.");
  const recvWindow = Number(params.get('recvWindow') ?? 5000);
  const serverTime = now();
  if (Number(timestamp) >= serverTime + 1000 || serverTime - Number(timestamp) > recvWindow) {
    return no(400, -1021, 'Timestamp for this request is outside of the recvWindow.');
  }
  if (payload === null) return no(400, -1102, "Mandatory parameter 'signature' was not sent, was empty/null, or malformed.");
  const known = await keys.secretOf(apiKey);
  if (!known) return no(401, -2015, 'Invalid API-key, IP, or permissions for action.');
  // The signature is not case-sensitive (binance.md §5); keys and secrets are.
  if (!sameSignature(hmacHex(known.secret, payload), safeDecode(signature), true)) {
    return no(400, -1022, 'Signature for this request is not valid.');
  }
  return { ok: true, apiKey, params };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * Binance USDⓈ-M signed endpoints under `/sim/binance` (binance.md §5). The paper exchange's
 * trading endpoints use the same check (`server/sim/paper/binance/`).
 * Error bodies and codes are Binance's (-1022 is fixtures/binance/error-signature.json).
 */
export function registerBinancePrivate(app: FastifyInstance, opts: SimPrivateOptions): void {
  app.get('/fapi/v1/accountConfig', async (req, reply) => {
    const signed = await verifyBinanceSigned(req, '', opts);
    if (!signed.ok) return fail(reply, signed.status, signed.code, signed.msg);
    const grants = simKeyGrants(signed.apiKey);
    return sendJson(reply, 200, {
      feeTier: 0,
      canTrade: grants.trade,
      canDeposit: true,
      canWithdraw: grants.withdraw,
      dualSidePosition: false,
      updateTime: 0,
      multiAssetsMargin: false,
      tradeGroupId: -1,
    });
  });
}
