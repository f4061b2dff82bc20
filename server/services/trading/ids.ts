import { randomBytes } from 'node:crypto';
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
