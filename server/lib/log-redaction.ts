/**
 * Log lines never carry credentials (DESIGN §3, §5). Fastify's request log has only method, url,
 * host and address — no headers, no bodies — and these routes never put secrets in URLs; this
 * pino redaction is the second belt for anything that logs an object holding one (a header bag,
 * a request body, an error with its input).
 */
const SENSITIVE_KEYS = ['apiKey', 'apiSecret', 'passphrase', 'keyPassword', 'password', 'refreshToken', 'accessToken'];
const SENSITIVE_HEADERS = ['authorization', 'cookie', 'x-key-password', 'x-xsrf-token', 'x-mbx-apikey', 'x-bapi-api-key', 'x-bapi-sign', 'api-key', 'api-signature', 'ok-access-key', 'ok-access-sign', 'ok-access-passphrase'];

export const REDACTED_LOG_PATHS: string[] = [
  ...SENSITIVE_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `headers["${h}"]`, `*.headers["${h}"]`]),
  ...SENSITIVE_KEYS.flatMap((k) => [k, `*.${k}`, `body.${k}`, `req.body.${k}`, `*.body.${k}`]),
];

export const REDACTION_CENSOR = '[redacted]';

/** Pino logger options (or `true`) with the redaction added; `false` (no logging) stays `false`. */
export function withRedaction<T extends object>(logger: boolean | T, level: string): false | (T & { redact: { paths: string[]; censor: string } }) | { level: string; redact: { paths: string[]; censor: string } } {
  if (logger === false) return false;
  const redact = { paths: REDACTED_LOG_PATHS, censor: REDACTION_CENSOR };
  return logger === true ? { level, redact } : { ...logger, redact };
}
