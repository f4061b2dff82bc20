import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendJson } from '../context';
import type { SimPrivateOptions } from './index';
import { hmacHex, header, isSimKey, rawTarget, sameSignature, simAccountId, simKeyGrants, simSecret } from './credentials';

/**
 * Bybit v5 signed endpoints under `/sim/bybit` (bybit.md §5): headers `X-BAPI-API-KEY`,
 * `X-BAPI-TIMESTAMP` (ms), `X-BAPI-RECV-WINDOW` (default 5000), `X-BAPI-SIGN` = hex
 * HMAC-SHA256(secret, timestamp + key + recvWindow + query string). Errors are Bybit's envelope
 * with HTTP 200 (trap 9): 10003 invalid key, 10002 time window, 10004 bad signature.
 */
export function registerBybitPrivate(app: FastifyInstance, { seed, now }: SimPrivateOptions): void {
  const fail = (reply: FastifyReply, retCode: number, retMsg: string) =>
    sendJson(reply, 200, { retCode, retMsg, result: {}, retExtInfo: {}, time: now() });

  app.get('/v5/user/query-api', async (req, reply) => {
    const apiKey = header(req.headers, 'x-bapi-api-key');
    const timestamp = header(req.headers, 'x-bapi-timestamp');
    const recvWindow = header(req.headers, 'x-bapi-recv-window') ?? '5000';
    const sign = header(req.headers, 'x-bapi-sign');
    if (!apiKey || !isSimKey(apiKey)) return fail(reply, 10003, 'API key is invalid.');
    const serverTime = now();
    const ts = Number(timestamp);
    if (!timestamp || !Number.isFinite(ts) || !(serverTime - Number(recvWindow) <= ts && ts < serverTime + 1000)) {
      return fail(reply, 10002, 'The request time exceeds the time window range.');
    }
    const { query } = rawTarget(req.url);
    if (!sameSignature(hmacHex(simSecret(seed, apiKey), `${timestamp}${apiKey}${recvWindow}${query}`), sign)) {
      return fail(reply, 10004, 'Error sign, please check your signature generation algorithm.');
    }
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
