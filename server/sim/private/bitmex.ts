import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendJson } from '../context';
import type { SimPrivateOptions } from './index';
import { hmacHex, header, rawTarget, sameSignature, simAccountId, simKeyGrants } from './credentials';

const fail = (reply: FastifyReply, status: number, message: string) => sendJson(reply, status, { error: { message, name: 'HTTPError' } });

export type BitmexSigned = { ok: true; apiKey: string } | { ok: false; status: number; message: string };

/**
 * BitMEX's signed-request check (bitmex.md §5), shared by every signed sim endpoint (the paper venue's
 * too): `api-key` a known key (401), `api-expires` Unix SECONDS in the future (400 / 401), and
 * `api-signature` = hex HMAC-SHA256(secret, VERB + path from `/api/v1` with `?query` as sent +
 * expires + body) (401 "Signature not valid.").
 */
export async function verifyBitmexSigned(req: FastifyRequest, body: string, { keys, now }: Pick<SimPrivateOptions, 'keys' | 'now'>): Promise<BitmexSigned> {
  const apiKey = header(req.headers, 'api-key');
  const expires = header(req.headers, 'api-expires');
  const signature = header(req.headers, 'api-signature');
  const known = apiKey ? await keys.secretOf(apiKey) : null;
  if (!apiKey || !known) return { ok: false, status: 401, message: 'Invalid API Key.' };
  const nowS = Math.floor(now() / 1000);
  if (!expires || !/^\d{1,12}$/.test(expires)) return { ok: false, status: 400, message: 'api-expires header is required and must be a UNIX timestamp in seconds.' };
  if (Number(expires) < nowS) return { ok: false, status: 401, message: `This request has expired - \`expires\` is in the past. Current time: ${nowS}` };
  const url = req.url;
  const { path, query } = rawTarget(url.slice(url.indexOf('/api/v1')));
  const signedPath = query ? `${path}?${query}` : path;
  if (!sameSignature(hmacHex(known.secret, `${req.method.toUpperCase()}${signedPath}${expires}${body}`), signature)) {
    return { ok: false, status: 401, message: 'Signature not valid.' };
  }
  return { ok: true, apiKey };
}

/**
 * BitMEX signed endpoints under `/sim/bitmex` (bitmex.md §5), checked by `verifyBitmexSigned`.
 * Errors are BitMEX's `{ error: { message, name } }` with HTTP 401.
 */
export function registerBitmexPrivate(app: FastifyInstance, opts: SimPrivateOptions): void {
  const { seed } = opts;
  app.get('/api/v1/apiKey', async (req, reply) => {
    const check = await verifyBitmexSigned(req, '', opts);
    if (!check.ok) return fail(reply, check.status, check.message);
    const { apiKey } = check;
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
