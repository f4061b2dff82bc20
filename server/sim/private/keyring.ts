import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { simCredentials } from '../../db/schema-sim';
import { serverOpen, serverSeal, type ServerSealed } from '../../lib/server-seal';
import type { SimExchange } from '../market/catalogue';
import { isSimKey } from './credentials';

/** A sim key's secret and passphrase (every key has one; only OKX asks for it). */
export interface SimSecret {
  secret: string;
  passphrase: string;
}

/** A freshly minted key: the only time its secret leaves the simulator. */
export interface MintedSimKey extends SimSecret {
  apiKey: string;
  exchange: SimExchange;
}

/**
 * What the signature checks need: a key's secret, or null for a key the simulator never minted
 * (the exchange's own invalid-key error). `cached` answers without waiting when it can (the private
 * streams' auth frames keep their order then).
 */
export interface SimKeys {
  secretOf(apiKey: string): Promise<SimSecret | null>;
  cached(apiKey: string): SimSecret | undefined;
}

export interface SimKeyringOptions {
  /** Where the keys are kept (the product's database; the standalone sim's in-memory PGlite). */
  db: () => Promise<Db>;
  /** The server's sealing key (SERVER_SECRET): every instance sharing the database must share it. */
  sealingKey: string;
  /** Keys kept opened in memory (least recently used go first). Default 10 000. */
  cacheSize?: number;
}

const MINT_ATTEMPTS = 5;

const randomSecret = () => randomBytes(32).toString('hex');
const randomPassphrase = () => randomBytes(8).toString('hex');

/** The row's sealed text: `iv.tag.ciphertext` (base64). */
const pack = (s: ServerSealed) => `${s.iv}.${s.tag}.${s.ciphertext}`;
function unpack(text: string): ServerSealed {
  const [iv = '', tag = '', ciphertext = ''] = text.split('.');
  return { iv, tag, ciphertext };
}
/** A sealed value opens only in its own row and column. */
const aadOf = (apiKey: string, what: 'secret' | 'passphrase') => `sim-credentials:${what}:${apiKey}`;

/**
 * The simulator's API keys (issue 24): a key's secret is random, minted once, kept sealed under the
 * server's key in `sim_credentials` (db/schema-sim.ts) and looked up by the signature checks —
 * nothing about it follows from the key's name. Opened keys stay in a small LRU cache; an instance
 * that did not mint a key reads it from the database on first use. Unknown keys are not cached (a key
 * minted on another instance a moment later must work here too).
 */
export class SimKeyring implements SimKeys {
  private readonly cache = new Map<string, SimSecret>();
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly opts: SimKeyringOptions) {}

  /**
   * A new key `sim-<label>[-withdraw][-readonly]-<8 hex>` with a random secret and passphrase,
   * stored before it is returned.
   */
  async mint(exchange: SimExchange, opts: { label?: string; withdraw?: boolean; readonly?: boolean } = {}): Promise<MintedSimKey> {
    const parts = ['sim', opts.label?.toLowerCase() || 'key', ...(opts.withdraw ? ['withdraw'] : []), ...(opts.readonly ? ['readonly'] : [])];
    for (let attempt = 1; ; attempt++) {
      const key = this.fresh(exchange, [...parts, randomBytes(4).toString('hex')].join('-'));
      if (await this.track(this.insert(key))) {
        this.remember(key.apiKey, key);
        return key;
      }
      if (attempt >= MINT_ATTEMPTS) throw new Error('Could not mint a simulator key: every name drawn was taken');
    }
  }

  /**
   * Test support: the key `apiKey` (a name the test chose) with a fresh random secret, answered at once
   * so a test client can sign synchronously; this instance knows it immediately, the database once
   * `stored` resolves (false: the name was taken or the write failed — the key is then forgotten here). Throws for a name
   * this instance already holds: a key is minted once.
   */
  issue(exchange: SimExchange, apiKey: string): MintedSimKey & { stored: Promise<boolean> } {
    if (!isSimKey(apiKey)) throw new Error(`Not a simulator key name: ${apiKey}`);
    if (this.cache.has(apiKey)) throw new Error(`The simulator key ${apiKey} exists already`);
    const key = this.fresh(exchange, apiKey);
    this.remember(apiKey, key);
    const stored = this.track(
      this.insert(key)
        .catch(() => false)
        .then((inserted) => {
          if (!inserted && this.cache.get(apiKey)?.secret === key.secret) this.cache.delete(apiKey);
          return inserted;
        }),
    );
    return { ...key, stored };
  }

  async secretOf(apiKey: string): Promise<SimSecret | null> {
    if (!isSimKey(apiKey)) return null;
    const hit = this.cached(apiKey);
    if (hit) return hit;
    const db = await this.opts.db();
    const [row] = await db.select().from(simCredentials).where(eq(simCredentials.apiKey, apiKey));
    if (!row) return null;
    let opened: SimSecret;
    try {
      opened = {
        secret: serverOpen(unpack(row.secretSealed), this.opts.sealingKey, aadOf(apiKey, 'secret')),
        passphrase: serverOpen(unpack(row.passphraseSealed), this.opts.sealingKey, aadOf(apiKey, 'passphrase')),
      };
    } catch {
      // Sealed under another SERVER_SECRET (or tampered with): the key does not exist for this server.
      return null;
    }
    this.remember(apiKey, opened);
    return opened;
  }

  cached(apiKey: string): SimSecret | undefined {
    const hit = this.cache.get(apiKey);
    if (hit) {
      this.cache.delete(apiKey);
      this.cache.set(apiKey, hit);
    }
    return hit;
  }

  /** Resolves once every write started so far has finished (before the database closes). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  private fresh(exchange: SimExchange, apiKey: string): MintedSimKey {
    return { apiKey, exchange, secret: randomSecret(), passphrase: randomPassphrase() };
  }

  /** True when the row was written, false when the name was taken. */
  private async insert(key: MintedSimKey): Promise<boolean> {
    const { sealingKey } = this.opts;
    const db = await this.opts.db();
    const rows = await db
      .insert(simCredentials)
      .values({
        apiKey: key.apiKey,
        exchange: key.exchange,
        secretSealed: pack(serverSeal(key.secret, sealingKey, aadOf(key.apiKey, 'secret'))),
        passphraseSealed: pack(serverSeal(key.passphrase, sealingKey, aadOf(key.apiKey, 'passphrase'))),
      })
      .onConflictDoNothing()
      .returning({ apiKey: simCredentials.apiKey });
    return rows.length === 1;
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p)).catch(() => undefined);
    return p;
  }

  private remember(apiKey: string, s: SimSecret): void {
    this.cache.delete(apiKey);
    this.cache.set(apiKey, { secret: s.secret, passphrase: s.passphrase });
    const max = this.opts.cacheSize ?? 10_000;
    while (this.cache.size > max) {
      const oldest = this.cache.keys().next().value;
      if (oldest === undefined) break;
      this.cache.delete(oldest);
    }
  }
}

/**
 * Calls `then` with a key's secret (null: unknown key): synchronously when this instance has it open,
 * else once the database answered. The private streams' auth frames use it, so a subscription sent
 * right after the auth frame of a known key finds the connection authenticated, as on the exchange.
 */
export function withSimSecret(keys: SimKeys, apiKey: string, then: (s: SimSecret | null) => void): void {
  const hit = isSimKey(apiKey) ? keys.cached(apiKey) : undefined;
  if (hit) return then(hit);
  void keys
    .secretOf(apiKey)
    .then(then, () => then(null))
    .catch(() => undefined);
}
