import type { DrawingHit } from '../drawings/hit-test';
import type { Drawing, DrawingPoint } from '../drawings/records';
import type { DrawingContext } from '../drawings/types';
import type { Tool } from '../types';

/** A pointer event reduced to what tools need (CSS px relative to the chart). */
export interface ToolPointer {
  x: number;
  y: number;
  shift?: boolean;
}

/**
 * What a pointer is over, after arbitration: an off-screen line's marker, a price line's ✕, drawing
 * handles, then draggable price lines, then drawing bodies.
 */
export type Target = { type: 'drawing'; hit: DrawingHit } | { type: 'line'; id: string } | { type: 'line-close'; id: string } | { type: 'line-marker'; id: string } | null;

/**
 * The engine as seen by tools. Tools never touch scales, stores or the renderer directly: they ask
 * the host, which keeps the engine's invariants (drags stay inside the engine until pointer-up).
 */
export interface ToolHost {
  target(x: number, y: number): Target;
  drawing(id: string): Drawing | undefined;
  ctx(): DrawingContext;
  /** Chart point under (x, y): time of the nearest bar, price magnet-snapped and tick-rounded. */
  pointAt(x: number, y: number): DrawingPoint;
  select(id: string | null): void;
  selectedId(): string | null;
  hover(target: Target): void;
  /** Shows a drawing that is being edited or created (null clears it). */
  preview(d: Drawing | null): void;
  commit(d: Drawing, created: boolean): void;
  previewLine(id: string, price: number | null): void;
  commitLine(id: string, price: number): void;
  /** The ✕ of a closable line was clicked. */
  closeLine(id: string): void;
  /** The marker of an off-screen line was clicked: bring the line into view. */
  revealLine(id: string): void;
  linePrice(id: string): number | undefined;
  pan(dx: number, dy: number): void;
  setCursor(cursor: string): void;
  /** Switches back to the Select tool (after a drawing was placed). */
  exitTool(): void;
  newDrawing(kind: Exclude<Tool, 'default' | 'position'>, p1: DrawingPoint, p2: DrawingPoint): Drawing;
}

/** A tool is a small state machine; `path` ("select.translating") is what tests assert. */
export interface ToolMachine {
  readonly id: Tool;
  readonly state: string;
  readonly path: string;
  pointerDown(p: ToolPointer): void;
  pointerMove(p: ToolPointer): void;
  pointerUp(p: ToolPointer): void;
  /** Escape: abandons the gesture in progress; returns false when there was nothing to cancel. */
  cancel(): boolean;
}

/** Movement (px) that turns a press into a drag. */
export const DRAG_THRESHOLD = 3;
