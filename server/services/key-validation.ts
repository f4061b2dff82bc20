import { internalSimControlHeaders } from '../sim/control-auth';
import type { ApiKeyPermissions } from '../../src/api/contracts/api-keys';
import type { ExchangeId, Network } from '../../src/api/contracts/common';
import { fetchKeyPermissions } from '../exchanges/account';
import { liveRestBase } from '../exchanges/endpoints';
import {
  ExchangeRejectedError,
  ExchangeUnreachableError,
  httpTransport,
  type ExchangeCredentials,
  type ExchangeTransport,
  type FetchFn,
} from '../exchanges/transport';
import { HttpError } from '../lib/http-error';

/** Checks a key against its exchange and says what it may do (DESIGN §3). */
export interface KeyValidator {
  /** Throws HttpError: 400 when the exchange refuses the key (its own message), 502 when it cannot be reached. */
  permissions(exchange: ExchangeId, network: Network, creds: ExchangeCredentials): Promise<ApiKeyPermissions>;
}

/** An in-process request to this server (app.inject), for reaching the simulator without a network hop. */
export type InjectFn = (req: { method: string; url: string; headers: Record<string, string> }) => Promise<{ status: number; text: string }>;

export interface KeyValidatorOptions {
  /** `sim`: the simulator mounted at `/sim` in this server; `live`: the exchanges' real hosts. */
  mode: 'sim' | 'live';
  inject?: InjectFn;
  /** Live mode: how to reach the hosts (tests pass a fake) and for how long. */
  fetch?: FetchFn;
  timeoutMs?: number;
}

/** The simulator's clock and seed, read from its control route (it owns both). */
export async function simState(inject: InjectFn): Promise<{ now: number; seed: string }> {
  const res = await inject({ method: 'GET', url: '/sim/_control/state', headers: internalSimControlHeaders() });
  if (res.status !== 200) throw new HttpError(502, 'The market simulator is not running');
  const state = JSON.parse(res.text) as { now: number; seed: string };
  return { now: state.now, seed: state.seed };
}

export function createKeyValidator(opts: KeyValidatorOptions): KeyValidator {
  const transportFor = (exchange: ExchangeId, network: Network): ExchangeTransport => {
    if (opts.mode === 'sim') {
      const inject = opts.inject;
      if (!inject) throw new Error('createKeyValidator: sim mode needs inject');
      return async (req) => {
        const res = await inject({ method: req.method, url: `/sim/${exchange}${req.path}`, headers: req.headers });
        return { status: res.status, text: res.text };
      };
    }
    const { base, headers } = liveRestBase(exchange, network === 'TESTNET');
    return httpTransport(exchange, base, { fetch: opts.fetch, timeoutMs: opts.timeoutMs, headers });
  };

  return {
    async permissions(exchange, network, creds) {
      // Sign with the exchange's clock: the simulator's may be a test's fake clock.
      const now = opts.mode === 'sim' && opts.inject ? (await simState(opts.inject)).now : Date.now();
      try {
        return await fetchKeyPermissions(exchange, transportFor(exchange, network), creds, now);
      } catch (err) {
        throw toHttpError(err, creds);
      }
    },
  };
}

/** Never echo a credential back, even when an exchange quotes it in its message (Bybit's "origin_string[...]"). */
function scrub(text: string, creds: ExchangeCredentials): string {
  let out = text;
  for (const secret of [creds.apiSecret, creds.passphrase, creds.apiKey]) {
    if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out;
}

function toHttpError(err: unknown, creds: ExchangeCredentials): unknown {
  if (err instanceof ExchangeRejectedError) {
    const exchangeMessage = scrub(err.exchangeMessage, creds);
    const message = scrub(err.message, creds);
    return new HttpError(400, message, err.field ? { [err.field]: exchangeMessage } : undefined);
  }
  if (err instanceof ExchangeUnreachableError) return new HttpError(502, scrub(err.message, creds));
  return err;
}
