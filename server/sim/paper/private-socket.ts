import type { WebSocket } from 'ws';
import { SimConnection } from '../hub';
import type { SimExchange } from '../market/catalogue';
import type { VenueContext } from './venue';

/** A venue's private (account) socket: its hub connection and the frames waiting for the next poll. */
export interface PrivateSocket {
  conn: SimConnection;
  queue: unknown[];
}

/**
 * Puts a private socket on the hub (so drop-sockets and the drop-private-sockets fault reach it):
 * `make` builds the venue's state around the connection, kept in `registry` until the socket closes;
 * each poll sends the queued frames (after `beforePoll`). While the exchange's "drop private sockets"
 * fault is set, new sockets are dropped at once: null then.
 */
export function openPrivateSocket<T extends PrivateSocket>(venue: VenueContext, exchange: SimExchange, socket: WebSocket, make: (conn: SimConnection) => T, registry: Set<T>, beforePoll?: (at: number) => void): T | null {
  const conn = new SimConnection(exchange, socket, (_t, f) => f, 'private');
  const state = make(conn);
  conn.subs.set('private', {
    poll(at) {
      beforePoll?.(at);
      return state.queue.splice(0);
    },
  });
  registry.add(state);
  socket.on('close', () => registry.delete(state));
  venue.hub.add(conn);
  if (!venue.faults.get(exchange).dropPrivateSockets) return state;
  venue.hub.drop(exchange, 'private');
  return null;
}
