import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_MIN_BYTES, negotiateCoding, registerCompression } from './compress';

const big = { rows: Array.from({ length: 200 }, (_, i) => ({ id: i, symbol: 'BTCUSDT', price: '64000.10', note: 'ünïcødé' })) };
const small = { ok: true };

describe('JSON compression', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify({ logger: false });
    registerCompression(app);
    app.get('/big', async () => big);
    app.get('/small', async () => small);
    app.get('/text', (_req, reply) => reply.type('text/plain').send('x'.repeat(5000)));
    app.get('/stream', (_req, reply) => reply.type('application/json').send(Readable.from([JSON.stringify(big)])));
    app.get('/encoded', (_req, reply) => reply.type('application/json').header('content-encoding', 'gzip').send(zlib.gzipSync(JSON.stringify(big))));
    app.get('/vary', (_req, reply) => reply.header('vary', 'origin').send(big));
    app.get('/problem', (_req, reply) => reply.code(422).type('application/problem+json; charset=utf-8').send(JSON.stringify(big)));
    app.get('/sim/depth', async () => big);
    await app.ready();
  });
  afterAll(() => app.close());

  it('answers a large JSON body in br or gzip by the accept-encoding, decoding to the same JSON', async () => {
    const plainLength = Buffer.byteLength(JSON.stringify(big));
    expect(plainLength).toBeGreaterThan(COMPRESS_MIN_BYTES);
    for (const [accept, coding, decode] of [
      ['gzip, deflate, br', 'br', zlib.brotliDecompressSync],
      ['br', 'br', zlib.brotliDecompressSync],
      ['gzip', 'gzip', zlib.gunzipSync],
      ['br;q=0.5, gzip', 'gzip', zlib.gunzipSync],
      ['deflate, *;q=0.8', 'br', zlib.brotliDecompressSync],
      ['*;q=0.5, br;q=0', 'gzip', zlib.gunzipSync],
    ] as const) {
      const res = await app.inject({ url: '/big', headers: { 'accept-encoding': accept } });
      expect(res.statusCode, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(coding);
      expect(res.headers.vary, accept).toBe('accept-encoding');
      expect(res.headers['content-type'], accept).toMatch(/^application\/json/);
      expect(Number(res.headers['content-length']), accept).toBe(res.rawPayload.length);
      expect(res.rawPayload.length, accept).toBeLessThan(plainLength / 4);
      expect(JSON.parse(decode(res.rawPayload).toString('utf8')), accept).toEqual(big);
    }
  });

  it('leaves the body plain without an accept-encoding asking for br or gzip, but says it varies', async () => {
    for (const headers of [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'deflate' }, { 'accept-encoding': 'br;q=0, gzip;q=0' }, { 'accept-encoding': '*;q=0' }]) {
      const res = await app.inject({ url: '/big', headers });
      expect(res.headers['content-encoding'], JSON.stringify(headers)).toBeUndefined();
      expect(res.headers.vary).toBe('accept-encoding');
      expect(res.json()).toEqual(big);
    }
  });

  it('leaves small answers, other types, streams, HEAD, encoded bodies and the simulator alone', async () => {
    const headers = { 'accept-encoding': 'br, gzip' };
    const small1 = await app.inject({ url: '/small', headers });
    expect(small1.headers['content-encoding']).toBeUndefined();
    expect(small1.headers.vary).toBeUndefined();
    expect(small1.json()).toEqual(small);
    const text = await app.inject({ url: '/text', headers });
    expect(text.headers['content-encoding']).toBeUndefined();
    expect(text.body).toHaveLength(5000);
    const stream = await app.inject({ url: '/stream', headers });
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.json()).toEqual(big);
    const head = await app.inject({ method: 'HEAD', url: '/big', headers });
    expect(head.headers['content-encoding']).toBeUndefined();
    const encoded = await app.inject({ url: '/encoded', headers });
    expect(encoded.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(encoded.rawPayload).toString())).toEqual(big); // not compressed twice
    const sim = await app.inject({ url: '/sim/depth', headers });
    expect(sim.headers['content-encoding']).toBeUndefined();
    expect(sim.json()).toEqual(big);
  });

  it('keeps an existing vary header and compresses +json error answers', async () => {
    const vary = await app.inject({ url: '/vary', headers: { 'accept-encoding': 'gzip' } });
    expect(vary.headers.vary).toBe('origin, accept-encoding');
    expect(vary.headers['content-encoding']).toBe('gzip');
    const problem = await app.inject({ url: '/problem', headers: { 'accept-encoding': 'br' } });
    expect(problem.statusCode).toBe(422);
    expect(problem.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(problem.rawPayload).toString())).toEqual(big);
  });

  it('negotiates by q-values', () => {
    expect(negotiateCoding(undefined)).toBeUndefined();
    expect(negotiateCoding('')).toBeUndefined();
    expect(negotiateCoding('gzip;q=0.9, br;q=0.8')).toBe('gzip');
    expect(negotiateCoding('GZIP, BR')).toBe('br');
    expect(negotiateCoding('gzip;q=bogus')).toBeUndefined();
    expect(negotiateCoding(['identity', 'gzip'])).toBe('gzip');
  });
});
