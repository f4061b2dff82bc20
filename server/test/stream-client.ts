import type { StreamServerMessage } from '../../src/api/contracts/trading';
import { JsonSocketClient, messageOf } from './json-socket-client';

/** A `/v1/trade/stream` client for tests. */
export class StreamClient extends JsonSocketClient<StreamServerMessage> {}

export const is = messageOf<StreamServerMessage>();
