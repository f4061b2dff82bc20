import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXCHANGE_IDS, type ExchangeId } from '../../src/api/contracts/common';
import simPlugin from '../sim';
import { fixture, simTestKey } from '../sim/testing';
import { fetchKeyPermissions } from './account';
import { ExchangeRejectedError, ExchangeUnreachableError, httpTransport, type ExchangeCredentials, type ExchangeTransport } from './transport';

const SEED = 'account-test-seed';
const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);

/** The signed clients against the simulator's private endpoints, in-process, bytes unchanged. */
describe('key permissions: signed clients against the simulator', () => {
  let app: FastifyInstance;
  let clock = NOW;
  beforeAll(async () => {
    app = Fastify({ logger: false });
    await app.register(websocket);
    await app.register(simPlugin, { prefix: '/sim', seed: SEED, now: () => clock });
    await app.ready();
  });
  afterAll(() => app.close());

  const transport =
    (exchange: ExchangeId): ExchangeTransport =>
    async (req) => {
      const res = await app.inject({ method: req.method, url: `/sim/${exchange}${req.path}`, headers: req.headers, ...(req.body ? { payload: req.body } : {}) });
      return { status: res.statusCode, text: res.body };
    };
  const creds = (exchange: ExchangeId, apiKey: string): ExchangeCredentials => ({
    apiKey,
    apiSecret: simTestKey(app, apiKey, exchange).secret,
    ...(exchange === 'okx' ? { passphrase: simTestKey(app, apiKey, exchange).passphrase } : {}),
  });
  const rejection = async (p: Promise<unknown>): Promise<ExchangeRejectedError> => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ExchangeRejectedError);
    return err as ExchangeRejectedError;
  };

  for (const exchange of EXCHANGE_IDS) {
    describe(exchange, () => {
      it('accepts a sim key and reports trading without withdrawal', async () => {
        clock = NOW;
        const perms = await fetchKeyPermissions(exchange, transport(exchange), creds(exchange, 'sim-alice'), NOW);
        expect(perms).toMatchObject({ read: true, trade: true, withdraw: false });
        expect(perms.details.length).toBeGreaterThan(0);
      });

      it('reports the withdrawal permission of a key with "withdraw" in its name', async () => {
        const perms = await fetchKeyPermissions(exchange, transport(exchange), creds(exchange, 'sim-bob-withdraw'), NOW);
        expect(perms).toMatchObject({ trade: true, withdraw: true });
      });

      it('reports a read-only key as unable to trade', async () => {
        const perms = await fetchKeyPermissions(exchange, transport(exchange), creds(exchange, 'sim-carol-readonly'), NOW);
        expect(perms).toMatchObject({ read: true, trade: false, withdraw: false });
      });

      it('rejects a wrong secret with the exchange’s own signature error', async () => {
        const c = { ...creds(exchange, 'sim-alice'), apiSecret: simTestKey(app, 'sim-mallory', exchange).secret };
        const err = await rejection(fetchKeyPermissions(exchange, transport(exchange), c, NOW));
        expect(err.field).toBe('apiSecret');
        expect(err.message).toContain('rejected the key');
        const expected = {
          binance: { code: '-1022', msg: fixture<{ msg: string }>('binance', 'error-signature.json').msg, status: 400 },
          bybit: { code: '10004', msg: 'Error sign, please check your signature generation algorithm.', status: 200 },
          bitmex: { code: '', msg: 'Signature not valid.', status: 401 },
          okx: { code: '50113', msg: fixture<{ msg: string }>('okx', 'error-invalid-signature.json').msg, status: 401 },
        }[exchange];
        expect({ code: err.code, msg: err.exchangeMessage, status: err.status }).toEqual(expected);
      });

      it('rejects a key that is not a simulator key', async () => {
        const c = { apiKey: 'not-a-sim-key', apiSecret: 'x', ...(exchange === 'okx' ? { passphrase: 'p' } : {}) };
        const err = await rejection(fetchKeyPermissions(exchange, transport(exchange), c, NOW));
        expect(err.field).toBe('apiKey');
      });

      it('rejects a request signed with a clock far from the exchange’s', async () => {
        const err = await rejection(fetchKeyPermissions(exchange, transport(exchange), creds(exchange, 'sim-alice'), NOW - 10 * 60_000));
        expect(err.field).toBeUndefined();
        if (exchange === 'binance') expect(err.exchangeMessage).toBe(fixture<{ msg: string }>('binance', 'error-timestamp.json').msg);
        if (exchange === 'okx') expect(err.exchangeMessage).toBe(fixture<{ msg: string }>('okx', 'error-timestamp-expired.json').msg);
      });
    });
  }

  it('okx: a wrong passphrase points at the passphrase', async () => {
    const c = { ...creds('okx', 'sim-alice'), passphrase: 'wrong-passphrase' };
    const err = await rejection(fetchKeyPermissions('okx', transport('okx'), c, NOW));
    expect(err.field).toBe('passphrase');
    expect(err.code).toBe('50105');
  });
});

describe('live transport', () => {
  it('turns a network failure into ExchangeUnreachableError naming the exchange', async () => {
    const t = httpTransport('bybit', 'https://api.bybit.test', {
      fetch: async () => {
        throw new TypeError('fetch failed', { cause: { code: 'ENOTFOUND' } });
      },
    });
    const err = await fetchKeyPermissions('bybit', t, { apiKey: 'k', apiSecret: 's' }, NOW).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExchangeUnreachableError);
    expect((err as Error).message).toBe('Could not reach bybit: fetch failed (ENOTFOUND)');
  });

  it('treats a 5xx answer as unreachable and sends the signed request to the live host unchanged', async () => {
    const seen: string[] = [];
    const t = httpTransport('binance', 'https://fapi.binance.test', {
      fetch: async (url, init) => {
        seen.push(`${init.method} ${url} ${init.headers['X-MBX-APIKEY']}`);
        return { status: 503, text: async () => 'Service Unavailable.' };
      },
    });
    const err = await fetchKeyPermissions('binance', t, { apiKey: 'key-1', apiSecret: 's' }, NOW).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExchangeUnreachableError);
    expect(seen[0]).toMatch(new RegExp(`^GET https://fapi\\.binance\\.test/fapi/v1/accountConfig\\?recvWindow=5000&timestamp=${NOW}&signature=[0-9a-f]{64} key-1$`));
  });
});
