/**
 * A canvas panel's drawing as data (issue 25 §2): what a painter does to its 2D context is written into a
 * number buffer on the main thread and replayed onto the real context elsewhere — the canvas handed to a
 * worker (`paint-worker.ts`), where the text shaping and the rasterising happen off the main thread. The
 * painters draw as before: `RecordingContext` is the part of `CanvasRenderingContext2D` they use.
 *
 * Strings (colours, fonts, glyphs, the exchange's prices) are numbered once per canvas and sent with the
 * first frame that uses them; a frame is its ops (codes and numbers) and the strings new since the last one.
 */
export const OP = {
  fillStyle: 1,
  globalAlpha: 2,
  composite: 3,
  textAlign: 4,
  textBaseline: 5,
  font: 6,
  fillRect: 7,
  fillText: 8,
  /** `drawImage` of the canvas onto itself (the tape moves its rows down): source x, y, w, h, then destination. */
  drawSelf: 9,
  setTransform: 10,
  /** New backing size, device pixels: the context's state is reset, as setting a canvas's size does. */
  resize: 11,
  /** The string table starts again (it grew past `MAX_STRINGS`): ids after it are new. */
  resetStrings: 12,
} as const;

/** Numbers a recording buffer starts with: a full repaint of a tall book fits, so buffers are not grown frame after frame. */
export const BUFFER_NUMBERS = 1 << 15;

/** Strings a canvas numbers before its table starts again (prices move: new ones keep coming). */
export const MAX_STRINGS = 8192;

/** What the replay needs of a 2D context (a worker's OffscreenCanvas context, or a test's recording fake). */
export interface ReplayTarget {
  fillStyle: unknown;
  globalAlpha: number;
  globalCompositeOperation: GlobalCompositeOperation;
  textAlign: CanvasTextAlign;
  textBaseline: CanvasTextBaseline;
  font: string;
  fillRect(x: number, y: number, w: number, h: number): void;
  fillText(text: string, x: number, y: number): void;
  drawImage(image: never, sx: number, sy: number, sw: number, sh: number, dx: number, dy: number, dw: number, dh: number): void;
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void;
}

/** The canvas a replay draws onto (its own image is the source of `drawSelf`; `resize` sets its size). */
export interface ReplayCanvas {
  width: number;
  height: number;
}

/**
 * Replays `n` numbers of `ops` onto `ctx` (of `canvas`), reading strings from `table`, which it extends with
 * `fresh` first (and empties at `resetStrings`, taking the rest of `fresh` after it). Unknown codes stop it.
 */
export function replay(canvas: ReplayCanvas, getContext: () => ReplayTarget, ops: Float64Array, n: number, table: string[], fresh: readonly string[]): void {
  let ctx = getContext();
  let f = 0;
  // Strings numbered before a reset come first in `fresh`; the reset's op says how many there were.
  const take = (upTo: number) => {
    while (f < upTo && f < fresh.length) table.push(fresh[f++]!);
  };
  const firstReset = indexOfReset(ops, n);
  take(firstReset < 0 ? fresh.length : ops[firstReset + 1]!);
  let i = 0;
  while (i < n) {
    switch (ops[i]) {
      case OP.fillStyle:
        ctx.fillStyle = table[ops[i + 1]!]!;
        i += 2;
        break;
      case OP.globalAlpha:
        ctx.globalAlpha = ops[i + 1]!;
        i += 2;
        break;
      case OP.composite:
        ctx.globalCompositeOperation = table[ops[i + 1]!]! as GlobalCompositeOperation;
        i += 2;
        break;
      case OP.textAlign:
        ctx.textAlign = table[ops[i + 1]!]! as CanvasTextAlign;
        i += 2;
        break;
      case OP.textBaseline:
        ctx.textBaseline = table[ops[i + 1]!]! as CanvasTextBaseline;
        i += 2;
        break;
      case OP.font:
        ctx.font = table[ops[i + 1]!]!;
        i += 2;
        break;
      case OP.fillRect:
        ctx.fillRect(ops[i + 1]!, ops[i + 2]!, ops[i + 3]!, ops[i + 4]!);
        i += 5;
        break;
      case OP.fillText:
        ctx.fillText(table[ops[i + 1]!]!, ops[i + 2]!, ops[i + 3]!);
        i += 4;
        break;
      case OP.drawSelf:
        ctx.drawImage(canvas as never, ops[i + 1]!, ops[i + 2]!, ops[i + 3]!, ops[i + 4]!, ops[i + 5]!, ops[i + 6]!, ops[i + 7]!, ops[i + 8]!);
        i += 9;
        break;
      case OP.setTransform:
        ctx.setTransform(ops[i + 1]!, ops[i + 2]!, ops[i + 3]!, ops[i + 4]!, ops[i + 5]!, ops[i + 6]!);
        i += 7;
        break;
      case OP.resize:
        canvas.width = ops[i + 1]!;
        canvas.height = ops[i + 2]!;
        ctx = getContext();
        i += 3;
        break;
      case OP.resetStrings: {
        table.length = 0;
        const next = indexOfReset(ops, n, i + 2);
        take(next < 0 ? fresh.length : ops[next + 1]!);
        i += 2;
        break;
      }
      default:
        return;
    }
  }
}

/** Where the next `resetStrings` op is from `from` on (-1: none); ops are walked by their sizes. */
function indexOfReset(ops: Float64Array, n: number, from = 0): number {
  let i = from;
  while (i < n) {
    const op = ops[i]!;
    if (op === OP.resetStrings) return i;
    i += SIZE[op] ?? n;
  }
  return -1;
}

/** Numbers per op, its code included. */
const SIZE: Record<number, number> = {
  [OP.fillStyle]: 2,
  [OP.globalAlpha]: 2,
  [OP.composite]: 2,
  [OP.textAlign]: 2,
  [OP.textBaseline]: 2,
  [OP.font]: 2,
  [OP.fillRect]: 5,
  [OP.fillText]: 4,
  [OP.drawSelf]: 9,
  [OP.setTransform]: 7,
  [OP.resize]: 3,
  [OP.resetStrings]: 2,
};

/** A frame's worth of drawing, handed over (its buffer is transferred: `ops` is then replaced). */
export interface Frame {
  ops: Float64Array;
  n: number;
  fresh: string[];
}

/**
 * The 2D context a painter draws on when its canvas is drawn elsewhere: every call becomes numbers in `ops`
 * (nothing drawn here), `measureText` is answered by a small context of this thread (`measurer`, same font).
 * `onDraw` is called at the first call after a `take()`: the owner sends the frame when the painter is done.
 */
export class RecordingContext {
  private ops: Float64Array;
  private n = 0;
  private readonly ids = new Map<string, number>();
  private fresh: string[] = [];
  private scheduled = false;
  private state = { fillStyle: '#000', globalAlpha: 1, composite: 'source-over' as GlobalCompositeOperation, textAlign: 'start' as CanvasTextAlign, textBaseline: 'alphabetic' as CanvasTextBaseline, font: '10px sans-serif' };

  constructor(
    readonly canvas: HTMLCanvasElement,
    private readonly measurer: Pick<CanvasRenderingContext2D, 'measureText' | 'font'> | null,
    private readonly onDraw: () => void,
    buffer: Float64Array = new Float64Array(BUFFER_NUMBERS),
  ) {
    this.ops = buffer;
  }

  get fillStyle(): string {
    return this.state.fillStyle;
  }
  set fillStyle(v: string) {
    this.state.fillStyle = v;
    this.op1(OP.fillStyle, this.id(v));
  }
  get globalAlpha(): number {
    return this.state.globalAlpha;
  }
  set globalAlpha(v: number) {
    this.state.globalAlpha = v;
    this.op1(OP.globalAlpha, v);
  }
  get globalCompositeOperation(): GlobalCompositeOperation {
    return this.state.composite;
  }
  set globalCompositeOperation(v: GlobalCompositeOperation) {
    this.state.composite = v;
    this.op1(OP.composite, this.id(v));
  }
  get textAlign(): CanvasTextAlign {
    return this.state.textAlign;
  }
  set textAlign(v: CanvasTextAlign) {
    this.state.textAlign = v;
    this.op1(OP.textAlign, this.id(v));
  }
  get textBaseline(): CanvasTextBaseline {
    return this.state.textBaseline;
  }
  set textBaseline(v: CanvasTextBaseline) {
    this.state.textBaseline = v;
    this.op1(OP.textBaseline, this.id(v));
  }
  get font(): string {
    return this.state.font;
  }
  set font(v: string) {
    this.state.font = v;
    this.op1(OP.font, this.id(v));
  }

  fillRect(x: number, y: number, w: number, h: number): void {
    const o = this.room(5);
    o[this.n] = OP.fillRect;
    o[this.n + 1] = x;
    o[this.n + 2] = y;
    o[this.n + 3] = w;
    o[this.n + 4] = h;
    this.n += 5;
  }

  fillText(text: string, x: number, y: number): void {
    const id = this.id(text);
    const o = this.room(4);
    o[this.n] = OP.fillText;
    o[this.n + 1] = id;
    o[this.n + 2] = x;
    o[this.n + 3] = y;
    this.n += 4;
  }

  /** Only the canvas onto itself, with a source and a destination rectangle (what the painters do). */
  drawImage(image: CanvasImageSource, sx: number, sy: number, sw: number, sh: number, dx: number, dy: number, dw: number, dh: number): void {
    if (image !== this.canvas) throw new Error('A recorded canvas draws only its own image');
    const o = this.room(9);
    o[this.n] = OP.drawSelf;
    o[this.n + 1] = sx;
    o[this.n + 2] = sy;
    o[this.n + 3] = sw;
    o[this.n + 4] = sh;
    o[this.n + 5] = dx;
    o[this.n + 6] = dy;
    o[this.n + 7] = dw;
    o[this.n + 8] = dh;
    this.n += 9;
  }

  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void {
    const o = this.room(7);
    o[this.n] = OP.setTransform;
    o[this.n + 1] = a;
    o[this.n + 2] = b;
    o[this.n + 3] = c;
    o[this.n + 4] = d;
    o[this.n + 5] = e;
    o[this.n + 6] = f;
    this.n += 7;
  }

  /** The backing store's new size in device pixels (the context's state starts again, as on a canvas). */
  resize(width: number, height: number): void {
    const o = this.room(3);
    o[this.n] = OP.resize;
    o[this.n + 1] = width;
    o[this.n + 2] = height;
    this.n += 3;
    this.state = { fillStyle: '#000', globalAlpha: 1, composite: 'source-over', textAlign: 'start', textBaseline: 'alphabetic', font: '10px sans-serif' };
  }

  measureText(text: string): TextMetrics {
    if (!this.measurer) return { width: text.length * 7 } as TextMetrics;
    if (this.measurer.font !== this.state.font) this.measurer.font = this.state.font;
    return this.measurer.measureText(text);
  }

  /** Nothing recorded since the last `take()`. */
  get empty(): boolean {
    return this.n === 0;
  }

  /** The frame recorded so far; recording goes on into `next` (a buffer back from the other side, or a new one). */
  take(next: Float64Array): Frame {
    const frame: Frame = { ops: this.ops, n: this.n, fresh: this.fresh };
    // A buffer this recording outgrew is not taken again: it would grow again.
    this.ops = next.length >= Math.max(BUFFER_NUMBERS, this.n) ? next : new Float64Array(Math.max(BUFFER_NUMBERS, frame.ops.length));
    this.n = 0;
    this.fresh = [];
    this.scheduled = false;
    return frame;
  }

  private op1(code: number, value: number): void {
    const o = this.room(2);
    o[this.n] = code;
    o[this.n + 1] = value;
    this.n += 2;
  }

  /** The buffer with room for `k` more numbers (grown when full); the owner hears of the first draw. */
  private room(k: number): Float64Array {
    if (!this.scheduled) {
      this.scheduled = true;
      this.onDraw();
    }
    if (this.n + k > this.ops.length) {
      const bigger = new Float64Array(Math.max(this.ops.length * 2, this.n + k));
      bigger.set(this.ops.subarray(0, this.n));
      this.ops = bigger;
    }
    return this.ops;
  }

  private id(s: string): number {
    let id = this.ids.get(s);
    if (id !== undefined) return id;
    if (this.ids.size >= MAX_STRINGS) {
      this.ids.clear();
      const o = this.room(2);
      o[this.n] = OP.resetStrings;
      // How many of this frame's fresh strings came before the reset (the replay takes those first).
      o[this.n + 1] = this.fresh.length;
      this.n += 2;
    }
    id = this.ids.size;
    this.ids.set(s, id);
    this.fresh.push(s);
    return id;
  }
}
