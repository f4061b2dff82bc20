import type WebSocket from 'ws';

/**
 * A JSON WebSocket client for tests (`/v1/trade/stream`, `/v1/stream`): every message kept, waits that name
 * what they wait for, the close code and reason.
 */
export class JsonSocketClient<M extends { type: string }> {
  readonly messages: M[] = [];
  closeCode: number | null = null;
  closeReason = '';
  private waiters: Array<() => void> = [];
  constructor(readonly socket: WebSocket) {
    socket.on('message', (raw) => {
      this.messages.push(JSON.parse(String(raw)) as M);
      this.wake();
    });
    socket.on('close', (code, reason) => {
      this.closeCode = code;
      this.closeReason = String(reason);
      this.wake();
    });
  }
  send(msg: unknown): void {
    this.socket.send(JSON.stringify(msg));
  }
  /** The first message from index `from` on that `match` accepts; `ms` only turns a hang into a clear failure. */
  async next<T extends M>(match: (m: M) => m is T, ms = 15_000, from = 0): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.messages.slice(from).find(match);
      if (found) return found;
      if (this.closeCode !== null) throw new Error(`stream closed (${this.closeCode}) while waiting; got ${JSON.stringify(this.messages.slice(-5))}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; got ${JSON.stringify(this.messages.slice(-5))}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }
  async closed(ms = 15_000): Promise<number> {
    const deadline = Date.now() + ms;
    while (this.closeCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    if (this.closeCode === null) throw new Error('not closed');
    return this.closeCode;
  }
  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}

/** A matcher of one message type (and optionally more), typed for `next`. */
export const messageOf =
  <M extends { type: string }>() =>
  <K extends M['type']>(type: K, pred: (m: Extract<M, { type: K }>) => boolean = () => true) =>
  (m: M): m is Extract<M, { type: K }> =>
    m.type === type && pred(m as Extract<M, { type: K }>);
