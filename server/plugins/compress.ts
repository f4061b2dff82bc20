import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** JSON answers from this size on are compressed for clients that accept it; below, the headers cost more than it saves. */
export const COMPRESS_MIN_BYTES = 1024;

export type Coding = 'br' | 'gzip';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** JSON and `+json` types (`application/problem+json`…), with or without parameters. */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/**
 * The coding to answer with for an `accept-encoding` header: `br` or `gzip`, whichever has the higher
 * q-value (`br` on a tie), never one with q=0; `*` stands for any coding not named. Undefined when the
 * client asks for neither (or sends no header: then it gets the plain body, as `app.inject` does in tests).
 */
export function negotiateCoding(header: string | string[] | undefined): Coding | undefined {
  if (header === undefined) return undefined;
  const q = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = rawName?.trim().toLowerCase();
    if (!name) continue;
    let weight = 1;
    for (const param of params) {
      const [key, value] = param.split('=').map((s) => s.trim().toLowerCase());
      if (key === 'q') weight = Number(value);
    }
    q.set(name, Number.isFinite(weight) ? Math.min(Math.max(weight, 0), 1) : 0);
  }
  const weightOf = (coding: Coding) => q.get(coding) ?? q.get('*') ?? 0;
  const br = weightOf('br');
  const gz = weightOf('gzip');
  if (br <= 0 && gz <= 0) return undefined;
  return br >= gz ? 'br' : 'gzip';
}

/** Adds `accept-encoding` to the reply's `vary` header, keeping what is there. */
export function varyAcceptEncoding(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  if (current === undefined || current === '') {
    reply.header('vary', 'accept-encoding');
    return;
  }
  const value = Array.isArray(current) ? current.join(', ') : String(current);
  const tokens = value.split(',').map((t) => t.trim().toLowerCase());
  if (tokens.includes('accept-encoding') || tokens.includes('*')) return;
  reply.header('vary', `${value}, accept-encoding`);
}

/** The simulator's exchange answers stay plain: its clients are the server's own connectors and tests. */
const isSimulator = (url: string) => url === '/sim' || url.startsWith('/sim/') || url.startsWith('/sim?');

export async function compressPayload(payload: string | Buffer, coding: Coding): Promise<Buffer> {
  if (coding === 'br') {
    // Quality 4: most of brotli's gain for a fraction of the CPU of its default 11 (that is for build time).
    return brotli(payload, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(payload),
      },
    });
  }
  return gzip(payload, { level: 6 });
}

/**
 * Compresses JSON answers of COMPRESS_MIN_BYTES and more with brotli or gzip, by the request's
 * `accept-encoding`. Left alone: streams (the static files, which are precompressed at build), answers
 * already encoded, HEAD, 1xx/204/304, non-JSON types and the simulator's `/sim/…`. Every answer that could
 * have been compressed says `vary: accept-encoding`, whether this request asked for it or not.
 */
export function registerCompression(app: FastifyInstance, opts: { minBytes?: number } = {}): void {
  const minBytes = opts.minBytes ?? COMPRESS_MIN_BYTES;
  app.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (req.method === 'HEAD' || reply.statusCode < 200 || reply.statusCode === 204 || reply.statusCode === 304) return payload;
    if (reply.hasHeader('content-encoding') || isSimulator(req.url)) return payload;
    if (!JSON_TYPE.test(String(reply.getHeader('content-type') ?? ''))) return payload;
    if (Buffer.byteLength(payload) < minBytes) return payload;
    varyAcceptEncoding(reply);
    const coding = negotiateCoding(req.headers['accept-encoding']);
    if (!coding) return payload;
    const body = await compressPayload(payload, coding);
    reply.header('content-encoding', coding);
    // Fastify sets the length of the payload it is handed; one set by the route is the plain body's.
    reply.removeHeader('content-length');
    return body;
  });
}
