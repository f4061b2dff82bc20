import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { binanceSignedQuery, signBinance } from './binance/account';
import { bitmexHeaders, bitmexPlaintext, signBitmex } from './bitmex/account';
import { bybitHeaders, bybitPlaintext, signBybit } from './bybit/account';
import { okxHeaders, okxPrehash, signOkx } from './okx/account';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/exchanges/fixtures');

interface Vector {
  id: string;
  secret: string | null;
  apiKey?: string;
  method: string | null;
  path: string | null;
  pathWithQuery?: string;
  requestPath?: string;
  query: string | null;
  body: string | null;
  timestamp?: string | number;
  expires?: number;
  recvWindow?: string | number | null;
  signedPayload?: string;
  expectedSignature: string;
  encoding: 'hex' | 'base64';
}

const vectors = (exchange: string): Vector[] =>
  (JSON.parse(readFileSync(path.join(FIXTURES, exchange, 'signing-vectors.json'), 'utf8')) as { vectors: Vector[] }).vectors;
/** Every vector with a published or derived secret (the others cannot be reproduced by anyone). */
const usable = (exchange: string) => vectors(exchange).filter((v): v is Vector & { secret: string; signedPayload: string } => !!v.secret && !!v.signedPayload);

describe('binance signing (every vector in fixtures/binance/signing-vectors.json)', () => {
  const all = usable('binance');
  it('has vectors to check', () => expect(all.length).toBe(7));
  for (const v of all) {
    it(v.id, () => {
      // Query and body are concatenated with no separator (binance.md §5).
      const payload = `${v.query ?? ''}${v.body ?? ''}`;
      expect(payload).toBe(v.signedPayload);
      expect(signBinance(v.secret, payload)).toBe(v.expectedSignature);
    });
  }

  it('builds the query in the given order and puts the signature last', () => {
    const v = all.find((x) => x.id === 'binance-fapi-example1-query')!;
    const params = (v.query ?? '').split('&').map((kv) => kv.split('=') as [string, string]);
    expect(binanceSignedQuery(params, v.secret)).toBe(`${v.query}&signature=${v.expectedSignature}`);
    // Same params, another order: another signature (trap 13).
    expect(binanceSignedQuery([...params].reverse(), v.secret)).not.toContain(v.expectedSignature);
  });
});

describe('bybit signing (every vector with a secret in fixtures/bybit/signing-vectors.json)', () => {
  const all = usable('bybit');
  it('has vectors to check', () => expect(all.length).toBe(4));
  for (const v of all) {
    it(v.id, () => {
      if (v.path === '/realtime') {
        // WS auth: "GET/realtime" + expires (ms).
        expect(`GET/realtime${v.timestamp}`).toBe(v.signedPayload);
      } else {
        const payload = v.method === 'GET' ? (v.query ?? '') : (v.body ?? '');
        expect(bybitPlaintext({ timestamp: String(v.timestamp), apiKey: v.apiKey ?? '', recvWindow: String(v.recvWindow), payload })).toBe(v.signedPayload);
      }
      expect(signBybit(v.secret, v.signedPayload)).toBe(v.expectedSignature);
    });
  }

  it('puts the same signature in X-BAPI-SIGN for a GET', () => {
    const v = all.find((x) => x.id === 'bybit-derived-get')!;
    const headers = bybitHeaders({ apiKey: v.apiKey ?? '', apiSecret: v.secret }, Number(v.timestamp), v.query ?? '');
    expect(headers).toEqual({ 'X-BAPI-API-KEY': v.apiKey, 'X-BAPI-TIMESTAMP': String(v.timestamp), 'X-BAPI-RECV-WINDOW': '5000', 'X-BAPI-SIGN': v.expectedSignature });
  });
});

describe('bitmex signing (every vector in fixtures/bitmex/signing-vectors.json)', () => {
  const all = usable('bitmex');
  it('has vectors to check', () => expect(all.length).toBe(4));
  for (const v of all) {
    it(v.id, () => {
      const plaintext = bitmexPlaintext({ verb: v.method ?? '', path: v.pathWithQuery ?? v.path ?? '', expires: v.expires ?? 0, body: v.body ?? '' });
      expect(plaintext).toBe(v.signedPayload);
      expect(signBitmex(v.secret, plaintext)).toBe(v.expectedSignature);
    });
  }

  it('signs with expires in SECONDS, 30 s ahead', () => {
    const v = all.find((x) => x.id === 'bitmex-doc-get')!;
    const now = (Number(v.expires) - 30) * 1000 + 999; // ms; expires = floor(now / 1000) + 30
    expect(bitmexHeaders({ apiKey: v.apiKey ?? '', apiSecret: v.secret }, now, 'GET', v.path ?? '')).toEqual({
      'api-key': v.apiKey,
      'api-expires': String(v.expires),
      'api-signature': v.expectedSignature,
    });
  });
});

describe('okx signing (every vector with a secret in fixtures/okx/signing-vectors.json)', () => {
  const all = usable('okx');
  it('has vectors to check', () => expect(all.length).toBe(3));
  for (const v of all) {
    it(v.id, () => {
      const prehash = okxPrehash({ timestamp: String(v.timestamp), method: v.method ?? '', requestPath: v.requestPath ?? '', body: v.body ?? '' });
      expect(prehash).toBe(v.signedPayload);
      expect(signOkx(v.secret, prehash)).toBe(v.expectedSignature);
    });
  }

  it('sends an ISO-8601 millisecond timestamp and the base64 signature', () => {
    const v = all.find((x) => x.id === 'okx-derived-get-with-query')!;
    const headers = okxHeaders({ apiKey: 'k', apiSecret: v.secret, passphrase: 'pp' }, Date.parse(String(v.timestamp)), 'GET', v.requestPath ?? '');
    expect(headers).toEqual({ 'OK-ACCESS-KEY': 'k', 'OK-ACCESS-SIGN': v.expectedSignature, 'OK-ACCESS-TIMESTAMP': v.timestamp, 'OK-ACCESS-PASSPHRASE': 'pp' });
  });
});
