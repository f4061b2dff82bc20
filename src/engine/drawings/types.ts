import type { PrimitiveList, TextList, MeasureText } from '../model/view/primitive-list';
import type { ResolvedTheme } from '../model/theme';
import type { Drawing, DrawingPoint } from './records';

/** Screen rectangle of the price pane (CSS px). */
export interface PaneRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * What a drawing util needs to know about the chart: the mappings between its units and the
 * screen. The engine implements it over its scales; unit tests implement it with plain lines.
 */
export interface DrawingContext {
  pane: PaneRect;
  timeToX(time: number): number;
  /** Time of the bar nearest to x (extrapolated past the data). */
  xToTime(x: number): number;
  priceToY(price: number): number;
  yToPrice(y: number): number;
  /** Rounds a price to the instrument's tick size. */
  roundPrice(price: number): number;
  /** Moves a time by the whole number of bars nearest to dx pixels. */
  shiftTime(time: number, dx: number): number;
  formatPrice(price: number): string;
}

export interface Handle {
  id: string;
  x: number;
  y: number;
}

/** Points beat lines beat areas (SPEC STYLE pattern 5). */
export type HitPart = 'handle' | 'line' | 'area';

export interface BodyHit {
  part: 'line' | 'area';
  /** Distance to the hit geometry in px (0 inside an area). */
  distance: number;
}

export interface DrawState {
  selected: boolean;
  hovered: boolean;
}

export interface DrawingOutput {
  prims: PrimitiveList;
  texts: TextList;
  /** Price-axis labels (drawn above the axis background). */
  axisPrims: PrimitiveList;
  axisTexts: TextList;
  theme: ResolvedTheme;
  measure: MeasureText;
  /** Left edge and width of the price axis (CSS px). */
  axisLeft: number;
  axisWidth: number;
}

/** Geometry, handles, hit-testing and handle drags of one drawing kind (tldraw's ShapeUtil). */
export interface DrawingUtil<T extends Drawing> {
  kind: T['kind'];
  handles(d: T, ctx: DrawingContext): Handle[];
  hitBody(d: T, ctx: DrawingContext, x: number, y: number, margin: number): BodyHit | null;
  /** A handle moved to `point` (time snapped to a bar, price rounded): the partial update. */
  dragHandle(d: T, handleId: string, point: DrawingPoint): Partial<T>;
  /** The whole drawing moved by (dx, dy) px from its state at drag start. */
  translate(d: T, dx: number, dy: number, ctx: DrawingContext): Partial<T>;
  draw(d: T, ctx: DrawingContext, state: DrawState, out: DrawingOutput): void;
}

/** Pixel margins for hit-testing (screen space, independent of zoom). */
export const HIT_MARGIN = 6;
export const HANDLE_RADIUS = 5;
export const HANDLE_HIT_RADIUS = 9;
