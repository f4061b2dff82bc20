import type WebSocket from 'ws';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import type { OpenSocket } from '../../exchanges/private-stream';
import type { TradePrint, TradeStream } from '../../exchanges/trade-streams';

export interface TradeSocketOptions {
  stream: TradeStream;
  /** The socket's path below the network's WebSocket root (every pair on it shares it). */
  path: string;
  open: OpenSocket;
  onPrints(prints: TradePrint[]): void;
  /** Connected and subscribed (true), or not (false): a gap to catch up from candles. */
  onLive(live: boolean): void;
  onError(err: unknown): void;
  /** Reconnect after this long without a frame (default 60 s). */
  silenceMs?: number;
}

/**
 * One public trade-stream connection carrying up to `stream.perConnection` pairs, subscribed and
 * unsubscribed on the open socket as pairs come and go; on every (re)connect it subscribes all of
 * them again. Heartbeats and reconnects like the scanner's ticker feed (1 s doubling to 30 s, reset
 * by a frame; a silent socket is dropped).
 */
export class TradeSocket {
  readonly pairs = new Map<string, Instrument>();
  private socket: WebSocket | null = null;
  private live = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private backoffMs = 1000;
  private connecting = false;

  constructor(private readonly opts: TradeSocketOptions) {}

  get path(): string {
    return this.opts.path;
  }

  get room(): number {
    return this.opts.stream.perConnection - this.pairs.size;
  }

  isLive(): boolean {
    return this.live;
  }

  add(insts: readonly Instrument[]): void {
    const fresh = insts.filter((i) => !this.pairs.has(i.exchangeSymbol));
    for (const i of fresh) this.pairs.set(i.exchangeSymbol, i);
    if (fresh.length && this.live) this.send(this.opts.stream.subscribe(fresh));
    if (!this.socket && !this.timer && !this.connecting && !this.stopped) this.connect();
  }

  remove(exchangeSymbols: readonly string[]): void {
    const gone = exchangeSymbols.flatMap((s) => {
      const i = this.pairs.get(s);
      return i ? [i] : [];
    });
    for (const i of gone) this.pairs.delete(i.exchangeSymbol);
    if (gone.length && this.live) this.send(this.opts.stream.unsubscribe(gone));
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.socket?.terminate();
    this.socket = null;
    this.setLive(false);
  }

  private send(messages: string[]): void {
    for (const m of messages) this.socket?.send(m);
  }

  private setLive(live: boolean): void {
    if (this.live === live) return;
    this.live = live;
    this.opts.onLive(live);
  }

  private retry(): void {
    if (this.stopped) return;
    const ms = this.backoffMs * (0.5 + Math.random() / 2);
    this.backoffMs = Math.min(this.backoffMs * 2, 30_000);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connect();
    }, ms);
    this.timer.unref?.();
  }

  private connect(): void {
    if (this.stopped) return;
    this.connecting = true;
    this.opts.open(this.opts.path).then(
      (socket) => {
        this.connecting = false;
        this.attach(socket);
      },
      (err: unknown) => {
        this.connecting = false;
        this.opts.onError(err);
        this.retry();
      },
    );
  }

  private attach(socket: WebSocket): void {
    if (this.stopped) {
      socket.terminate();
      return;
    }
    this.socket = socket;
    const { stream } = this.opts;
    let lastFrameAt = Date.now();
    this.send(stream.subscribe([...this.pairs.values()]));
    this.setLive(true);
    const silenceMs = this.opts.silenceMs ?? 60_000;
    const watch = setInterval(
      () => {
        const quiet = Date.now() - lastFrameAt;
        if (quiet > silenceMs) socket.terminate();
        else if (stream.heartbeat && quiet >= stream.heartbeat.afterMs) socket.send(stream.heartbeat.text);
      },
      Math.min(stream.heartbeat?.afterMs ?? 10_000, 10_000),
    );
    watch.unref?.();
    socket.on('message', (data, isBinary) => {
      lastFrameAt = Date.now();
      this.backoffMs = 1000;
      if (isBinary) return;
      try {
        const prints = stream.parse(data.toString()).filter((p) => this.pairs.has(p.exchangeSymbol));
        if (prints.length) this.opts.onPrints(prints);
      } catch (err) {
        this.opts.onError(err);
      }
    });
    socket.on('error', (err) => this.opts.onError(err));
    socket.on('close', () => {
      clearInterval(watch);
      if (this.socket === socket) this.socket = null;
      this.setLive(false);
      this.retry();
    });
  }
}
