import type { AppStreamServerMessage } from '../contracts/notifications';

/** A `/v1/stream` WebSocket the test drives: what the app sent, and server messages on demand. */
export class FakeAppSocket {
  static all: FakeAppSocket[] = [];
  static latest(): FakeAppSocket | undefined {
    return FakeAppSocket.all[FakeAppSocket.all.length - 1];
  }
  readyState = 0;
  sent: unknown[] = [];
  closed = false;
  onopen: ((ev: Event) => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onclose: ((ev: CloseEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  constructor(readonly url: string) {
    FakeAppSocket.all.push(this);
  }
  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }
  close(): void {
    this.closed = true;
    this.readyState = 3;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  receive(message: AppStreamServerMessage): void {
    this.onmessage?.({ data: JSON.stringify(message) } as MessageEvent);
  }
  /** The server (or the network) closed it with `code`. */
  drop(code = 1006): void {
    this.readyState = 3;
    this.onclose?.({ code } as CloseEvent);
  }
}
