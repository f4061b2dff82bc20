import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendJson } from '../context';
import type { SimPrivateOptions } from './index';
import { hmacBase64, header, isSimKey, rawTarget, sameSignature, simAccountId, simKeyGrants, simPassphrase, simSecret } from './credentials';

/** OKX rejects a request whose timestamp is more than 30 s from its clock (okx.md §5). */
const SKEW_MS = 30_000;

/**
 * OKX v5 signed endpoints under `/sim/okx` (okx.md §5): headers `OK-ACCESS-KEY`,
 * `OK-ACCESS-TIMESTAMP` (ISO-8601 ms), `OK-ACCESS-PASSPHRASE`, `OK-ACCESS-SIGN` = BASE64
 * HMAC-SHA256(secret, timestamp + METHOD + requestPath with `?query` + body). Errors are OKX's
 * `{ code, msg, data: [] }` with HTTP 401 (50113 is fixtures/okx/error-invalid-signature.json).
 */
export function registerOkxPrivate(app: FastifyInstance, { seed, now }: SimPrivateOptions): void {
  const fail = (reply: FastifyReply, code: string, msg: string) => sendJson(reply, 401, { code, msg, data: [] });

  app.get('/api/v5/account/config', async (req, reply) => {
    const apiKey = header(req.headers, 'ok-access-key');
    const timestamp = header(req.headers, 'ok-access-timestamp');
    const passphrase = header(req.headers, 'ok-access-passphrase');
    const sign = header(req.headers, 'ok-access-sign');
    if (!apiKey) return fail(reply, '50103', 'Request header OK-ACCESS-KEY cannot be empty.');
    if (!timestamp) return fail(reply, '50107', 'Request header OK-ACCESS-TIMESTAMP cannot be empty.');
    if (!passphrase) return fail(reply, '50104', 'Request header OK-ACCESS-PASSPHRASE cannot be empty.');
    if (!sign) return fail(reply, '50106', 'Request header OK-ACCESS-SIGN cannot be empty.');
    const t = Date.parse(timestamp);
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(timestamp) || Number.isNaN(t)) return fail(reply, '50112', 'Invalid OK-ACCESS-TIMESTAMP.');
    if (Math.abs(now() - t) > SKEW_MS) return fail(reply, '50102', 'Timestamp request expired.');
    if (!isSimKey(apiKey)) return fail(reply, '50111', 'Invalid OK-ACCESS-KEY.');
    if (!sameSignature(simPassphrase(seed, apiKey), passphrase)) return fail(reply, '50105', 'OK-ACCESS-PASSPHRASE incorrect.');
    const url = req.url;
    const { path, query } = rawTarget(url.slice(url.indexOf('/api/v5')));
    const requestPath = query ? `${path}?${query}` : path;
    if (!sameSignature(hmacBase64(simSecret(seed, apiKey), `${timestamp}GET${requestPath}`), sign)) {
      return fail(reply, '50113', 'Invalid signature.');
    }
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
