import type { WebSocketLike } from '../ws-connection';

type Handler = ((ev: never) => void) | null;

/** A scriptable stand-in for the browser WebSocket: tests open it, push frames and cut it. */
export class FakeSocket implements WebSocketLike {
  static instances: FakeSocket[] = [];
  readyState = 0;
  readonly sent: string[] = [];
  closedByClient = false;
  onopen: Handler = null;
  onmessage: Handler = null;
  onclose: Handler = null;
  onerror: Handler = null;

  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }

  static reset(): void {
    FakeSocket.instances = [];
  }

  static last(): FakeSocket {
    const s = FakeSocket.instances.at(-1);
    if (!s) throw new Error('no socket was opened');
    return s;
  }

  send(data: string): void {
    if (this.readyState !== 1) throw new Error('send on a socket that is not open');
    this.sent.push(data);
  }

  close(): void {
    this.closedByClient = true;
    this.readyState = 3;
  }

  open(): void {
    this.readyState = 1;
    (this.onopen as ((ev: unknown) => void) | null)?.({});
  }

  receive(data: string): void {
    (this.onmessage as ((ev: { data: unknown }) => void) | null)?.({ data });
  }

  /** The server or the network ends the connection. */
  drop(): void {
    this.readyState = 3;
    (this.onclose as ((ev: unknown) => void) | null)?.({});
  }

  get handlersDetached(): boolean {
    return this.onopen === null && this.onmessage === null && this.onclose === null;
  }
}
