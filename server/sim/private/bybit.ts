import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendJson } from '../context';
import type { SimPrivateOptions } from './index';
import { hmacHex, header, rawTarget, sameSignature, simAccountId, simKeyGrants } from './credentials';

export type BybitSigned = { ok: true; apiKey: string } | { ok: false; retCode: number; retMsg: string };

/**
 * Bybit v5's signed-request check (bybit.md §5), shared by every signed sim endpoint (the paper
 * venue's too): `X-BAPI-API-KEY` a known key (10003), then `X-BAPI-TIMESTAMP` (ms) within
 * `server time − X-BAPI-RECV-WINDOW (default 5000) ≤ ts < server time + 1000` (10002), then
 * `X-BAPI-SIGN` = lowercase hex HMAC-SHA256(secret, timestamp + key + recvWindow + payload) (10004).
 * `payload` is what Bybit signs: the raw query string of a GET, the raw JSON body of a POST,
 * exactly as sent (a space in the JSON changes the signature: trap 13).
 */
export async function verifyBybitSigned(req: FastifyRequest, payload: string, { keys, now }: Pick<SimPrivateOptions, 'keys' | 'now'>): Promise<BybitSigned> {
  const apiKey = header(req.headers, 'x-bapi-api-key');
  const timestamp = header(req.headers, 'x-bapi-timestamp');
  const recvWindow = header(req.headers, 'x-bapi-recv-window') ?? '5000';
  const sign = header(req.headers, 'x-bapi-sign');
  const known = apiKey ? await keys.secretOf(apiKey) : null;
  if (!apiKey || !known) return { ok: false, retCode: 10003, retMsg: 'API key is invalid.' };
  const serverTime = now();
  const ts = Number(timestamp);
  if (!timestamp || !Number.isFinite(ts) || !(serverTime - Number(recvWindow) <= ts && ts < serverTime + 1000)) {
    return { ok: false, retCode: 10002, retMsg: 'The request time exceeds the time window range.' };
  }
  if (!sameSignature(hmacHex(known.secret, `${timestamp}${apiKey}${recvWindow}${payload}`), sign)) {
    return { ok: false, retCode: 10004, retMsg: 'Error sign, please check your signature generation algorithm.' };
  }
  return { ok: true, apiKey };
}

/**
 * Bybit v5 signed endpoints under `/sim/bybit` (bybit.md §5), checked by `verifyBybitSigned`.
 * Errors are Bybit's envelope with HTTP 200 (trap 9): 10003 invalid key, 10002 time window,
 * 10004 bad signature. The paper venue (`server/sim/paper/bybit/`) uses the same check.
 */
export function registerBybitPrivate(app: FastifyInstance, opts: SimPrivateOptions): void {
  const { now } = opts;
  const fail = (reply: FastifyReply, retCode: number, retMsg: string) =>
    sendJson(reply, 200, { retCode, retMsg, result: {}, retExtInfo: {}, time: now() });

  app.get('/v5/user/query-api', async (req, reply) => {
    const check = await verifyBybitSigned(req, rawTarget(req.url).query, opts);
    if (!check.ok) return fail(reply, check.retCode, check.retMsg);
    const { apiKey } = check;
    const { seed } = opts;
    const serverTime = now();
    const grants = simKeyGrants(apiKey);
    const created = new Date(Date.UTC(2026, 0, 1)).toISOString().replace('.000', '');
    return sendJson(reply, 200, {
      retCode: 0,
      retMsg: '',
      result: {
        id: String(simAccountId(seed, `key:${apiKey}`)),
        note: apiKey,
        apiKey,
        readOnly: grants.trade ? 0 : 1,
        secret: '',
        permissions: {
          ContractTrade: grants.trade ? ['Order', 'Position'] : [],
          Spot: [],
          Wallet: grants.withdraw ? ['AccountTransfer', 'Withdraw'] : ['AccountTransfer'],
          Options: [],
          Derivatives: grants.trade ? ['DerivativesTrade'] : [],
          CopyTrading: [],
          BlockTrade: [],
          Exchange: [],
          NFT: [],
        },
        ips: ['*'],
        type: 1,
        deadlineDay: 90,
        expiredAt: '',
        createdAt: created,
        unified: 1,
        uta: 1,
        userID: simAccountId(seed, apiKey),
        inviterID: 0,
        vipLevel: 'No VIP',
        mktMakerLevel: '0',
        affiliateID: 0,
      },
      retExtInfo: {},
      time: serverTime,
    });
  });
}
