import { proxy } from 'valtio/vanilla';

/**
 * Live-connection state of the signed-in session (SPEC §4): the exchange user-data stream's listen
 * key and whether the live connection is up. Never persisted; sign-out clears it with `resetSession`.
 */
export interface SessionState {
  listenKey: string | null;
  connected: boolean;
}

const initialSession = (): SessionState => ({ listenKey: null, connected: false });

export const session = proxy<SessionState>(initialSession());

export function setListenKey(listenKey: string | null): void {
  session.listenKey = listenKey;
}

export function setConnected(connected: boolean): void {
  session.connected = connected;
}

/** Forget the listen key and mark the connection down (sign-out). */
export function resetSession(): void {
  Object.assign(session, initialSession());
}
