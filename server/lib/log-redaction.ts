/**
 * Log lines never carry credentials (DESIGN §3, §5). Fastify's request log has only method, path,
 * host and address — no headers, no bodies, no query string — and errors are logged through
 * `safeErrorSerializer`, which keeps a database error's code and message but never its query text,
 * parameters or detail (a failed insert of an API key would otherwise log the sealed secret, IV,
 * tag, salt and scrypt settings). This pino redaction is the second belt for anything that logs an
 * object holding a secret (a header bag, a request body).
 */
const SENSITIVE_KEYS = ['apiKey', 'apiSecret', 'passphrase', 'keyPassword', 'password', 'refreshToken', 'accessToken'];
const SENSITIVE_HEADERS = ['authorization', 'cookie', 'x-key-password', 'x-xsrf-token', 'x-mbx-apikey', 'x-bapi-api-key', 'x-bapi-sign', 'api-key', 'api-signature', 'ok-access-key', 'ok-access-sign', 'ok-access-passphrase'];

export const REDACTED_LOG_PATHS: string[] = [
  ...SENSITIVE_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `headers["${h}"]`, `*.headers["${h}"]`]),
  ...SENSITIVE_KEYS.flatMap((k) => [k, `*.${k}`, `body.${k}`, `req.body.${k}`, `*.body.${k}`]),
];

export const REDACTION_CENSOR = '[redacted]';

/** What a logged error may show: its kind, a message without SQL, and the driver's codes. */
export interface SafeLoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  code?: string;
  constraint?: string;
  table?: string;
  column?: string;
  severity?: string;
  /** Frames only (the first line of a stack repeats the message). */
  stack: string;
  cause?: SafeLoggedError;
}

const SQL_MARKERS = [/\n?\s*params:[\s\S]*$/, /Failed query:[\s\S]*$/];

/** A message with any SQL text and parameters cut off (drizzle puts both in its error message). */
export function safeErrorMessage(message: string): string {
  let out = message;
  for (const marker of SQL_MARKERS) out = out.replace(marker, '');
  out = out.trim();
  return out || (message.startsWith('Failed query') ? 'database query failed' : message.slice(0, 200));
}

const pickString = (rec: Record<string, unknown>, key: string) => (typeof rec[key] === 'string' ? (rec[key] as string) : undefined);

/**
 * The error serializer of every logger the server builds. Database drivers attach `query`,
 * `params`, `detail` ("Key (token_hash)=(…) already exists"), `where` and `internalQuery` to their
 * errors, and drizzle wraps them in a message that holds the SQL and its parameters: none of that
 * survives. A drizzle wrapper is replaced by its cause (the driver error), whose code says what failed.
 */
export function safeErrorSerializer(err: unknown, depth = 0): SafeLoggedError {
  if (!err || typeof err !== 'object') return { type: typeof err, message: String(err).slice(0, 200), stack: '' };
  const rec = err as Record<string, unknown>;
  const type = (err as Error).constructor?.name ?? 'Error';
  const cause = rec.cause;
  // DrizzleQueryError: nothing of its own is safe; its cause is the driver's error.
  if (type === 'DrizzleQueryError' && cause && typeof cause === 'object' && depth < 4) {
    return { ...safeErrorSerializer(cause, depth + 1), type: `DrizzleQueryError(${(cause as Error).constructor?.name ?? 'Error'})` };
  }
  const rawMessage = typeof rec.message === 'string' ? rec.message : '';
  const out: SafeLoggedError = { type, message: safeErrorMessage(rawMessage), stack: '' };
  for (const key of ['code', 'constraint', 'table', 'column', 'severity'] as const) {
    const v = pickString(rec, key);
    if (v !== undefined) out[key] = v;
  }
  const stack = pickString(rec, 'stack');
  if (stack) out.stack = stack.split('\n').filter((l) => /^\s+at /.test(l)).slice(0, 15).join('\n');
  if (cause && typeof cause === 'object' && depth < 4) out.cause = safeErrorSerializer(cause, depth + 1);
  return out;
}

interface LoggableRequest {
  method?: string;
  url?: string;
  host?: string;
  hostname?: string;
  ip?: string;
  socket?: { remoteAddress?: string; remotePort?: number };
}

/** The request as a log line shows it: method and path only — a query string may hold a search or a token. */
export function safeRequestSerializer(req: LoggableRequest) {
  return {
    method: req.method,
    url: typeof req.url === 'string' ? req.url.split('?')[0] : undefined,
    host: req.host ?? req.hostname,
    remoteAddress: req.ip ?? req.socket?.remoteAddress,
    remotePort: req.socket?.remotePort,
  };
}

export const SAFE_LOG_SERIALIZERS = {
  err: (e: unknown) => safeErrorSerializer(e),
  error: (e: unknown) => safeErrorSerializer(e),
  cause: (e: unknown) => safeErrorSerializer(e),
  req: safeRequestSerializer,
};

type LoggerWithSafety = { redact: { paths: string[]; censor: string }; serializers: typeof SAFE_LOG_SERIALIZERS };

/** Pino logger options (or `true`) with the redaction and safe serializers added; `false` (no logging) stays `false`. */
export function withRedaction<T extends object>(logger: boolean | T, level: string): false | (T & LoggerWithSafety) | ({ level: string } & LoggerWithSafety) {
  if (logger === false) return false;
  const redact = { paths: REDACTED_LOG_PATHS, censor: REDACTION_CENSOR };
  if (logger === true) return { level, redact, serializers: SAFE_LOG_SERIALIZERS };
  const given = (logger as { serializers?: Record<string, unknown> }).serializers;
  return { ...logger, redact, serializers: { ...given, ...SAFE_LOG_SERIALIZERS } };
}
