import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendJson } from '../context';
import type { SimPrivateOptions } from './index';
import { hmacBase64, header, rawTarget, sameSignature, simAccountId, simKeyGrants } from './credentials';

/** OKX rejects a request whose timestamp is more than 30 s from its clock (okx.md §5). */
const SKEW_MS = 30_000;

export type OkxSigned = { ok: true; apiKey: string } | { ok: false; code: string; msg: string };

/**
 * OKX v5's signed-request check (okx.md §5), shared by every signed sim endpoint (the paper venue's
 * too): the four headers present (50103/50107/50104/50106), an ISO-8601 ms timestamp (50112) within
 * 30 s of the server's clock (50102), a known key (50111), its passphrase (50105), and
 * `OK-ACCESS-SIGN` = BASE64 HMAC-SHA256(secret, timestamp + METHOD + requestPath?query + body) (50113).
 */
export async function verifyOkxSigned(req: FastifyRequest, body: string, { keys, now }: Pick<SimPrivateOptions, 'keys' | 'now'>): Promise<OkxSigned> {
  const apiKey = header(req.headers, 'ok-access-key');
  const timestamp = header(req.headers, 'ok-access-timestamp');
  const passphrase = header(req.headers, 'ok-access-passphrase');
  const sign = header(req.headers, 'ok-access-sign');
  if (!apiKey) return { ok: false, code: '50103', msg: 'Request header OK-ACCESS-KEY cannot be empty.' };
  if (!timestamp) return { ok: false, code: '50107', msg: 'Request header OK-ACCESS-TIMESTAMP cannot be empty.' };
  if (!passphrase) return { ok: false, code: '50104', msg: 'Request header OK-ACCESS-PASSPHRASE cannot be empty.' };
  if (!sign) return { ok: false, code: '50106', msg: 'Request header OK-ACCESS-SIGN cannot be empty.' };
  const t = Date.parse(timestamp);
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(timestamp) || Number.isNaN(t)) return { ok: false, code: '50112', msg: 'Invalid OK-ACCESS-TIMESTAMP.' };
  if (Math.abs(now() - t) > SKEW_MS) return { ok: false, code: '50102', msg: 'Timestamp request expired.' };
  const known = await keys.secretOf(apiKey);
  if (!known) return { ok: false, code: '50111', msg: 'Invalid OK-ACCESS-KEY.' };
  if (!sameSignature(known.passphrase, passphrase)) return { ok: false, code: '50105', msg: 'OK-ACCESS-PASSPHRASE incorrect.' };
  const url = req.url;
  const { path, query } = rawTarget(url.slice(url.indexOf('/api/v5')));
  const requestPath = query ? `${path}?${query}` : path;
  if (!sameSignature(hmacBase64(known.secret, `${timestamp}${req.method.toUpperCase()}${requestPath}${body}`), sign)) {
    return { ok: false, code: '50113', msg: 'Invalid signature.' };
  }
  return { ok: true, apiKey };
}

/**
 * OKX v5 signed endpoints under `/sim/okx` (okx.md §5), checked by `verifyOkxSigned`. Errors are
 * OKX's `{ code, msg, data: [] }` with HTTP 401 (50113 is fixtures/okx/error-invalid-signature.json).
 */
export function registerOkxPrivate(app: FastifyInstance, opts: SimPrivateOptions): void {
  const { seed } = opts;
  const fail = (reply: FastifyReply, code: string, msg: string) => sendJson(reply, 401, { code, msg, data: [] });

  app.get('/api/v5/account/config', async (req, reply) => {
    const check = await verifyOkxSigned(req, '', opts);
    if (!check.ok) return fail(reply, check.code, check.msg);
    const { apiKey } = check;
    const grants = simKeyGrants(apiKey);
    const perm = ['read_only', ...(grants.trade ? ['trade'] : []), ...(grants.withdraw ? ['withdraw'] : [])].join(',');
    const uid = String(simAccountId(seed, apiKey));
    return sendJson(reply, 200, {
      code: '0',
      msg: '',
      data: [
        {
          acctLv: '2',
          acctStpMode: 'cancel_maker',
          autoLoan: false,
          ctIsoMode: 'automatic',
          enableSpotBorrow: false,
          greeksType: 'PA',
          ip: '',
          kycLv: '2',
          label: apiKey,
          level: 'Lv1',
          levelTmp: '',
          liquidationGear: '-1',
          mainUid: uid,
          mgnIsoMode: 'automatic',
          perm,
          posMode: 'net_mode',
          roleType: '0',
          spotBorrowAutoRepay: false,
          spotOffsetType: '',
          spotRoleType: '0',
          spotTraderInsts: [],
          traderInsts: [],
          type: '0',
          uid,
        },
      ],
    });
  });
}
