import { createHash, randomBytes } from 'node:crypto';
import type { Order, OrderRole } from '../../../src/api/contracts/trading';

/**
 * Client order ids the server makes (letters and digits ≤ 32, valid on every exchange: trap 21).
 * A bracket's legs carry the bracket's id plus a role letter, so any client — a stream event, a
 * reconcile, another tab — can tell which bracket and role an order belongs to from the exchange alone.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomAlnum(n: number): string {
  const bytes = randomBytes(n);
  let out = '';
  for (let i = 0; i < n; i++) out += ALPHABET[bytes[i] % ALPHABET.length];
  return out;
}

/** A single order's id: `CT` + 20 random characters. */
export const newClientOrderId = (): string => `CT${randomAlnum(20)}`;

/** A bracket's id: `BK` + 18 random characters; legs append E, S, T1…T5 (and R<n> when replaced). */
export const newBracketId = (): string => `BK${randomAlnum(18)}`;

/** `n` letters and digits derived from `text` (sha-256): the same text always gives the same id. */
function derivedAlnum(text: string, n: number): string {
  const bytes = createHash('sha256').update(text).digest();
  let out = '';
  for (let i = 0; i < n; i++) out += ALPHABET[bytes[i] % ALPHABET.length];
  return out;
}

/**
 * The bracket id for a request (issue 21: an idempotency key is never replaced). A client id of
 * the server's own `BK…` form is the bracket id; any other id the contract allows is turned into one
 * deterministically, per key — the same id sent twice gives the same bracket and the same leg ids on
 * the exchange. No client id: a new random bracket.
 */
export function bracketIdFor(apiKeyId: string, clientOrderId: string | undefined): string {
  if (!clientOrderId) return newBracketId();
  if (/^BK[A-Za-z0-9]{18}$/.test(clientOrderId)) return clientOrderId;
  return `BK${derivedAlnum(`bracket:${apiKeyId}:${clientOrderId}`, 18)}`;
}

/** A ladder's id, the same way (`LD` + 18); its orders append L1…L50. */
export function ladderIdFor(apiKeyId: string, clientOrderId: string | undefined): string {
  if (!clientOrderId) return `LD${randomAlnum(18)}`;
  return `LD${derivedAlnum(`ladder:${apiKeyId}:${clientOrderId}`, 18)}`;
}
export const ladderLegId = (ladderId: string, n: number): string => `${ladderId}L${n}`;

/**
 * The market order that flattens what a refused bracket's entry filled; `n` > 1 for a later part (an entry that
 * went on filling while it could not be cancelled): `…X`, `…X2`, `…X3`.
 */
export const flattenId = (bracketId: string, n = 1): string => `${bracketId}X${n > 1 ? n : ''}`;

export const legId = (bracketId: string, leg: 'E' | 'S' | `T${number}`): string => `${bracketId}${leg}`;

const LEG = /^(BK[A-Za-z0-9]{18})(E|S|T[1-5])(?:R\d+)?$/;
const ROLE: Record<string, OrderRole> = { E: 'entry', S: 'stop-loss', T: 'take-profit' };

export function parseLeg(clientOrderId: string | null): { bracketId: string; role: OrderRole } | null {
  const m = clientOrderId ? LEG.exec(clientOrderId) : null;
  return m ? { bracketId: m[1], role: ROLE[m[2][0]] } : null;
}

export function tagOrder(o: Order): Order {
  const leg = parseLeg(o.clientOrderId);
  return leg ? { ...o, bracketId: leg.bracketId, role: leg.role } : o;
}
