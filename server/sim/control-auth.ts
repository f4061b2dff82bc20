import { randomToken, safeEqual } from '../lib/tokens';

/**
 * The simulator's control routes (`/sim/_control/*`: drop every socket, read the clock) are test
 * aids, not an open door: inside the product they need an admin's access token. The server's own
 * in-process calls (the API-key checks read the simulator's clock and seed through `app.inject`)
 * present this token instead — random per process, never sent over the network or logged.
 */
export const SIM_CONTROL_HEADER = 'x-sim-control';
const INTERNAL_TOKEN = randomToken();

export const internalSimControlHeaders = (): Record<string, string> => ({ [SIM_CONTROL_HEADER]: INTERNAL_TOKEN });

export function isInternalSimControlCall(headers: Record<string, string | string[] | undefined>): boolean {
  const value = headers[SIM_CONTROL_HEADER];
  return typeof value === 'string' && safeEqual(value, INTERNAL_TOKEN);
}
