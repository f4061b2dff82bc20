import type { AppStreamServerMessage, Notification } from '../../src/api/contracts/notifications';
import { JsonSocketClient, messageOf } from './json-socket-client';

/** A `/v1/stream` client for tests. */
export class AppStreamClient extends JsonSocketClient<AppStreamServerMessage> {
  /** Every notification pushed so far (resume and live), in arrival order. */
  notifications(): Notification[] {
    return this.messages.flatMap((m) => (m.type === 'notifications' ? m.items : []));
  }
}

export const isApp = messageOf<AppStreamServerMessage>();
