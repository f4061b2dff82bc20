import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendJson } from '../context';
import type { SimPrivateOptions } from './index';
import { hmacHex, header, isSimKey, rawTarget, sameSignature, simAccountId, simKeyGrants, simSecret } from './credentials';

const fail = (reply: FastifyReply, status: number, message: string) => sendJson(reply, status, { error: { message, name: 'HTTPError' } });

/**
 * BitMEX signed endpoints under `/sim/bitmex` (bitmex.md §5): headers `api-key`, `api-expires`
 * (Unix SECONDS, must be in the future), `api-signature` = hex HMAC-SHA256(secret, VERB + path from
 * `/api/v1` with `?query` as sent + expires + body). Errors are BitMEX's `{ error: { message, name } }`
 * with HTTP 401.
 */
export function registerBitmexPrivate(app: FastifyInstance, { seed, now }: SimPrivateOptions): void {
  app.get('/api/v1/apiKey', async (req, reply) => {
    const apiKey = header(req.headers, 'api-key');
    const expires = header(req.headers, 'api-expires');
    const signature = header(req.headers, 'api-signature');
    if (!apiKey || !isSimKey(apiKey)) return fail(reply, 401, 'Invalid API Key.');
    const nowS = Math.floor(now() / 1000);
    if (!expires || !/^\d{1,12}$/.test(expires)) return fail(reply, 400, 'api-expires header is required and must be a UNIX timestamp in seconds.');
    if (Number(expires) < nowS) return fail(reply, 401, `This request has expired - \`expires\` is in the past. Current time: ${nowS}`);
    const url = req.url;
    const { path, query } = rawTarget(url.slice(url.indexOf('/api/v1')));
    const signedPath = query ? `${path}?${query}` : path;
    if (!sameSignature(hmacHex(simSecret(seed, apiKey), `GET${signedPath}${expires}`), signature)) {
      return fail(reply, 401, 'Signature not valid.');
    }
    const grants = simKeyGrants(apiKey);
    const permissions = [...(grants.trade ? ['order', 'orderCancel'] : []), ...(grants.withdraw ? ['withdraw'] : [])];
    return sendJson(reply, 200, [
      {
        id: apiKey,
        name: apiKey,
        nonce: 0,
        cidr: '0.0.0.0/0',
        cidrs: ['0.0.0.0/0'],
        permissions,
        enabled: true,
        userId: simAccountId(seed, apiKey),
        created: new Date(Date.UTC(2026, 0, 1)).toISOString(),
      },
    ]);
  });
}
