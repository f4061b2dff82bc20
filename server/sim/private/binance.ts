import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendJson } from '../context';
import type { SimPrivateOptions } from './index';
import { hmacHex, header, isSimKey, rawTarget, sameSignature, simKeyGrants, simSecret } from './credentials';

const fail = (reply: FastifyReply, status: number, code: number, msg: string) => sendJson(reply, status, { code, msg });

/**
 * Binance USDⓈ-M signed endpoints under `/sim/binance` (binance.md §5): `X-MBX-APIKEY`, then
 * `timestamp` within `recvWindow` (default 5000 ms, server time + 1 s), then `signature` = hex
 * HMAC-SHA256(secret, query string without the signature + body), which must be the last parameter.
 * Error bodies and codes are Binance's (-1022 is fixtures/binance/error-signature.json).
 */
export function registerBinancePrivate(app: FastifyInstance, { seed, now }: SimPrivateOptions): void {
  app.get('/fapi/v1/accountConfig', async (req, reply) => {
    const apiKey = header(req.headers, 'x-mbx-apikey');
    if (!apiKey) return fail(reply, 401, -2014, 'API-key format invalid.');
    const { query } = rawTarget(req.url);
    const match = /^(.*)&signature=([^&]*)$/.exec(query);
    const params = new URLSearchParams(match ? match[1] : query);
    const timestamp = params.get('timestamp');
    if (!timestamp || !/^\d{1,15}$/.test(timestamp)) return fail(reply, 400, -1102, "Mandatory parameter 'timestamp' was not sent, was empty/null, or malformed.");
    const recvWindow = Number(params.get('recvWindow') ?? 5000);
    const serverTime = now();
    if (Number(timestamp) >= serverTime + 1000 || serverTime - Number(timestamp) > recvWindow) {
      return fail(reply, 400, -1021, 'Timestamp for this request is outside of the recvWindow.');
    }
    if (!match) return fail(reply, 400, -1102, "Mandatory parameter 'signature' was not sent, was empty/null, or malformed.");
    if (!isSimKey(apiKey)) return fail(reply, 401, -2015, 'Invalid API-key, IP, or permissions for action.');
    // The signature is not case-sensitive (binance.md §5); keys and secrets are.
    if (!sameSignature(hmacHex(simSecret(seed, apiKey), match[1]), decodeURIComponent(match[2]), true)) {
      return fail(reply, 400, -1022, 'Signature for this request is not valid.');
    }
    const grants = simKeyGrants(apiKey);
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
