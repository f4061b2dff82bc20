import { describe, expect, it } from 'vitest';
import { fixture } from '../sim/testing';
import { binanceSignedQuery, signBinance } from './binance/account';
import { bitmexHeaders, bitmexPlaintext, signBitmex } from './bitmex/account';
import { bybitHeaders, bybitPlaintext, signBybit } from './bybit/account';
import { okxHeaders, okxPrehash, signOkx } from './okx/account';
import type { SigningVector as Vector } from './signing';

type Usable = Vector & { secret: string; signedPayload: string };

/** Every vector with a published or derived secret (the others cannot be reproduced by anyone). Throws, naming the file, when it is missing. */
const usable = (exchange: string): Usable[] =>
  fixture<{ vectors: Vector[] }>(exchange, 'signing-vectors.json').vectors.filter((v): v is Usable => !!v.secret && !!v.signedPayload);

/**
 * The vectors to generate one test each from, read while the file is collected: a missing or broken
 * file gives none here, and the "has vectors to check" test (which reads it with `usable`) fails with
 * the reason — one failing test instead of a file that cannot be collected.
 */
const collect = (exchange: string): Usable[] => {
  try {
    return usable(exchange);
  } catch {
    return [];
  }
};

describe('binance signing (every vector in fixtures/binance/signing-vectors.json)', () => {
  const all = collect('binance');
  it('has vectors to check', () => expect(usable('binance').length).toBe(7));
  for (const v of all) {
    it(v.id, () => {
      // Query and body are concatenated with no separator (binance.md §5).
      const payload = `${v.query ?? ''}${v.body ?? ''}`;
      expect(payload).toBe(v.signedPayload);
      expect(signBinance(v.secret, payload)).toBe(v.expectedSignature);
    });
  }

  it('builds the query in the given order and puts the signature last', () => {
    const v = usable('binance').find((x) => x.id === 'binance-fapi-example1-query')!;
    const params = (v.query ?? '').split('&').map((kv) => kv.split('=') as [string, string]);
    expect(binanceSignedQuery(params, v.secret)).toBe(`${v.query}&signature=${v.expectedSignature}`);
    // Same params, another order: another signature (trap 13).
    expect(binanceSignedQuery([...params].reverse(), v.secret)).not.toContain(v.expectedSignature);
  });
});

describe('bybit signing (every vector with a secret in fixtures/bybit/signing-vectors.json)', () => {
  const all = collect('bybit');
  it('has vectors to check', () => expect(usable('bybit').length).toBe(4));
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
    const v = usable('bybit').find((x) => x.id === 'bybit-derived-get')!;
    const headers = bybitHeaders({ apiKey: v.apiKey ?? '', apiSecret: v.secret }, Number(v.timestamp), v.query ?? '');
    expect(headers).toEqual({ 'X-BAPI-API-KEY': v.apiKey, 'X-BAPI-TIMESTAMP': String(v.timestamp), 'X-BAPI-RECV-WINDOW': '5000', 'X-BAPI-SIGN': v.expectedSignature });
  });
});

describe('bitmex signing (every vector in fixtures/bitmex/signing-vectors.json)', () => {
  const all = collect('bitmex');
  it('has vectors to check', () => expect(usable('bitmex').length).toBe(4));
  for (const v of all) {
    it(v.id, () => {
      const plaintext = bitmexPlaintext({ verb: v.method ?? '', path: v.pathWithQuery ?? v.path ?? '', expires: v.expires ?? 0, body: v.body ?? '' });
      expect(plaintext).toBe(v.signedPayload);
      expect(signBitmex(v.secret, plaintext)).toBe(v.expectedSignature);
    });
  }

  it('signs with expires in SECONDS, 30 s ahead', () => {
    const v = usable('bitmex').find((x) => x.id === 'bitmex-doc-get')!;
    const now = (Number(v.expires) - 30) * 1000 + 999; // ms; expires = floor(now / 1000) + 30
    expect(bitmexHeaders({ apiKey: v.apiKey ?? '', apiSecret: v.secret }, now, 'GET', v.path ?? '')).toEqual({
      'api-key': v.apiKey,
      'api-expires': String(v.expires),
      'api-signature': v.expectedSignature,
    });
  });
});

describe('okx signing (every vector with a secret in fixtures/okx/signing-vectors.json)', () => {
  const all = collect('okx');
  it('has vectors to check', () => expect(usable('okx').length).toBe(3));
  for (const v of all) {
    it(v.id, () => {
      const prehash = okxPrehash({ timestamp: String(v.timestamp), method: v.method ?? '', requestPath: v.requestPath ?? '', body: v.body ?? '' });
      expect(prehash).toBe(v.signedPayload);
      expect(signOkx(v.secret, prehash)).toBe(v.expectedSignature);
    });
  }

  it('sends an ISO-8601 millisecond timestamp and the base64 signature', () => {
    const v = usable('okx').find((x) => x.id === 'okx-derived-get-with-query')!;
    const headers = okxHeaders({ apiKey: 'k', apiSecret: v.secret, passphrase: 'pp' }, Date.parse(String(v.timestamp)), 'GET', v.requestPath ?? '');
    expect(headers).toEqual({ 'OK-ACCESS-KEY': 'k', 'OK-ACCESS-SIGN': v.expectedSignature, 'OK-ACCESS-TIMESTAMP': v.timestamp, 'OK-ACCESS-PASSPHRASE': 'pp' });
  });
});
