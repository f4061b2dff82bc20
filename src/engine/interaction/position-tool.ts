import type { DrawingContext } from '../drawings/types';
import { HANDLE_HIT_RADIUS, HIT_MARGIN } from '../drawings/types';
import type { PositionPlan } from '../types';
import { DRAG_THRESHOLD, type ToolHost, type ToolMachine, type ToolPointer } from './tool';

/**
 * The position being laid out: the stop is known from the first click, the entry once the second
 * click (or the drag from the entry) lands. Chart units, prices rounded to the tick.
 */
export interface PositionDraft {
  /** The bar the zones start at (unix s); they run to the pane's right edge. */
  time: number;
  stop: number;
  entry: number | null;
  targets: number[];
}

/** A level of the position a handle moves: the stop, the entry or target `index`. */
export type PositionLevel = { kind: 'stop' } | { kind: 'entry' } | { kind: 'target'; index: number };

/** What the host does for the position tool (the controller implements it with the model). */
export interface PositionHost extends ToolHost {
  /** Shows the draft (null clears it); `settled` — a click or a drop, not a pointer move: the app hears of it. */
  showPosition(d: PositionDraft | null, settled: boolean): void;
  /** R multiples of the targets a new position gets (the app's choice, default 1R, 2R, 3R). */
  positionTargets(): readonly number[];
}

/** Target prices at `rs` times the risk distance beyond the entry, tick-rounded. */
export function targetsAt(entry: number, stop: number, rs: readonly number[], round: (p: number) => number): number[] {
  return rs.map((r) => round(entry + (entry - stop) * r));
}

/** A position the tool can report: the stop on one side of the entry, every target strictly on the other. */
export function isValidDraft(d: PositionDraft): d is PositionDraft & { entry: number } {
  if (d.entry === null || d.entry === d.stop) return false;
  const long = d.stop < d.entry;
  const entry = d.entry;
  return d.targets.every((t) => (long ? t > entry : t < entry));
}

export function planOf(d: PositionDraft & { entry: number }): PositionPlan {
  return { time: d.time, stop: d.stop, entry: d.entry, targets: [...d.targets], side: d.stop < d.entry ? 'long' : 'short' };
}

/** Left end of the zones on screen: the clicked bar, kept inside the pane when it scrolled out. */
export function positionLeft(d: PositionDraft, ctx: DrawingContext): number {
  const x = ctx.timeToX(d.time);
  return Math.max(ctx.pane.left, Math.min(ctx.pane.left + ctx.pane.width - 1, x));
}

/** The level whose line (from the zones' left edge, handle included, to the right edge) is nearest (x, y), within the hit margin. */
export function levelAt(d: PositionDraft, ctx: DrawingContext, x: number, y: number): PositionLevel | null {
  if (d.entry === null) return null;
  const left = positionLeft(d, ctx) - HANDLE_HIT_RADIUS;
  if (x < left || x > ctx.pane.left + ctx.pane.width) return null;
  const levels: Array<[PositionLevel, number]> = [
    [{ kind: 'stop' }, d.stop],
    [{ kind: 'entry' }, d.entry],
    ...d.targets.map((t, index): [PositionLevel, number] => [{ kind: 'target', index }, t]),
  ];
  let best: PositionLevel | null = null;
  let bestDist = HIT_MARGIN + 1;
  for (const [level, price] of levels) {
    const dist = Math.abs(ctx.priceToY(price) - y);
    if (dist <= HIT_MARGIN && dist < bestDist) {
      best = level;
      bestDist = dist;
    }
  }
  return best;
}

/** The draft with one level moved to `price`. */
export function moveLevel(d: PositionDraft, level: PositionLevel, price: number): PositionDraft {
  if (level.kind === 'stop') return { ...d, stop: price };
  if (level.kind === 'entry') return { ...d, entry: price };
  return { ...d, targets: d.targets.map((t, i) => (i === level.index ? price : t)) };
}

export type PositionState = 'idle' | 'pointing' | 'dragging_from_entry' | 'awaiting_entry' | 'placed' | 'pointing_canvas' | 'panning' | 'dragging_level';

/**
 * The position tool: the stop, then the entry; the stop and target zones follow, and their levels
 * can be dragged until the app places or the user cancels (Escape). The engine works out prices
 * only; sizes and money are the app's (it labels the levels through `PositionToolOptions.labels`).
 *
 * idle ─down→ pointing ─up (no move)→ awaiting_entry ─move→ (entry follows) ─up→ placed
 *                      └─move→ dragging_from_entry (press = entry, pointer = stop) ─up→ placed
 * placed ─down on a level→ dragging_level ─up→ placed · ─down elsewhere→ pointing_canvas ─move→ panning ─up→ placed
 */
export class PositionTool implements ToolMachine {
  readonly id = 'position' as const;
  state: PositionState = 'idle';
  private draft: PositionDraft | null = null;
  private start = { x: 0, y: 0 };
  private last = { x: 0, y: 0 };
  private pressPrice = 0;
  private level: PositionLevel | null = null;
  private before: PositionDraft | null = null;

  constructor(private readonly host: PositionHost) {}

  get path(): string {
    return `position.${this.state}`;
  }

  /** The draft as shown (tests, the controller). */
  get current(): PositionDraft | null {
    return this.draft;
  }

  pointerDown(p: ToolPointer): void {
    this.start = { x: p.x, y: p.y };
    this.last = { x: p.x, y: p.y };
    const ctx = this.host.ctx();
    if (this.state === 'idle') {
      this.pressPrice = this.priceAt(p.y);
      this.draft = { time: ctx.xToTime(p.x), stop: this.pressPrice, entry: null, targets: [] };
      this.state = 'pointing';
      this.host.showPosition(this.draft, false);
    } else if (this.state === 'placed' && this.draft) {
      this.level = levelAt(this.draft, ctx, p.x, p.y);
      this.before = this.draft;
      this.state = this.level ? 'dragging_level' : 'pointing_canvas';
    }
  }

  pointerMove(p: ToolPointer): void {
    const moved = Math.hypot(p.x - this.start.x, p.y - this.start.y) > DRAG_THRESHOLD;
    switch (this.state) {
      case 'idle':
        this.host.setCursor('crosshair');
        return;
      case 'pointing':
        if (!moved || !this.draft) return;
        this.state = 'dragging_from_entry';
        this.pointerMove(p);
        return;
      case 'dragging_from_entry':
        if (this.draft) this.show(this.withEntry(this.draft.time, this.priceAt(p.y), this.pressPrice), false);
        return;
      case 'awaiting_entry':
        if (this.draft) this.show(this.withEntry(this.draft.time, this.draft.stop, this.priceAt(p.y)), false);
        return;
      case 'placed':
        this.host.setCursor(this.draft && levelAt(this.draft, this.host.ctx(), p.x, p.y) ? 'ns-resize' : 'crosshair');
        return;
      case 'dragging_level':
        if (this.before && this.level) this.show(moveLevel(this.before, this.level, this.priceAt(p.y)), false);
        return;
      case 'pointing_canvas':
        if (!moved) return;
        this.state = 'panning';
        this.host.setCursor('grabbing');
        this.pointerMove(p);
        return;
      case 'panning':
        this.host.pan(p.x - this.last.x, p.y - this.last.y);
        this.last = { x: p.x, y: p.y };
        return;
    }
  }

  pointerUp(p: ToolPointer): void {
    switch (this.state) {
      case 'pointing':
        this.state = 'awaiting_entry';
        return;
      case 'awaiting_entry':
        if (!this.draft) return;
        this.settle(this.withEntry(this.draft.time, this.draft.stop, this.priceAt(p.y)));
        return;
      case 'dragging_from_entry':
        if (!this.draft) return;
        this.settle(this.withEntry(this.draft.time, this.priceAt(p.y), this.pressPrice));
        return;
      case 'dragging_level':
        if (this.before && this.level) this.show(moveLevel(this.before, this.level, this.priceAt(p.y)), false);
        this.level = null;
        this.before = null;
        this.state = 'placed';
        if (this.draft) this.host.showPosition(this.draft, true);
        return;
      case 'pointing_canvas':
      case 'panning':
        this.state = 'placed';
        this.host.setCursor('crosshair');
        return;
    }
  }

  cancel(): boolean {
    const busy = this.state !== 'idle';
    this.state = 'idle';
    this.draft = null;
    this.level = null;
    this.before = null;
    if (busy) this.host.showPosition(null, true);
    return busy;
  }

  private priceAt(y: number): number {
    const ctx = this.host.ctx();
    return ctx.roundPrice(ctx.yToPrice(y));
  }

  private withEntry(time: number, stop: number, entry: number): PositionDraft {
    const round = (p: number) => this.host.ctx().roundPrice(p);
    return { time, stop, entry, targets: entry === stop ? [] : targetsAt(entry, stop, this.host.positionTargets(), round) };
  }

  /** Shows `d` when it is a valid position (a drag past the entry or a target keeps the last valid one). */
  private show(d: PositionDraft, settled: boolean): boolean {
    if (!isValidDraft(d)) return false;
    this.draft = d;
    this.host.showPosition(d, settled);
    return true;
  }

  /** The entry landed: a valid position is placed; an entry on the stop waits for another click. */
  private settle(d: PositionDraft): void {
    if (this.show(d, true)) this.state = 'placed';
    else if (this.draft) {
      this.draft = { ...this.draft, entry: null, targets: [] };
      this.host.showPosition(this.draft, false);
      this.state = 'awaiting_entry';
    }
  }
}
