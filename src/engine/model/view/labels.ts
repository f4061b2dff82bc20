import type { Rgba } from '../../core/colors';
import type { MeasureText, PrimitiveList, TextList } from './primitive-list';

export const LABEL_HEIGHT = 18;
export const LABEL_PAD_X = 5;

/** A filled label box on the price axis, vertically centred on y (price lines, crosshair, last price). */
export function priceAxisLabel(
  prims: PrimitiveList,
  texts: TextList,
  axisLeft: number,
  axisWidth: number,
  y: number,
  text: string,
  background: Rgba,
  foreground: Rgba,
): void {
  const top = Math.round(y - LABEL_HEIGHT / 2);
  prims.rect(axisLeft, top, axisWidth, LABEL_HEIGHT, background);
  texts.add(text, axisLeft + LABEL_PAD_X, top + LABEL_HEIGHT / 2, foreground, 0, 0.5);
}

/** A filled label box anchored at (x, y): ax/ay as in TextList (0 left/top … 1 right/bottom). */
export function boxLabel(
  prims: PrimitiveList,
  texts: TextList,
  measure: MeasureText,
  x: number,
  y: number,
  text: string,
  background: Rgba,
  foreground: Rgba,
  ax = 0,
  ay = 0.5,
): { left: number; top: number; width: number; height: number } {
  const width = Math.ceil(measure(text)) + LABEL_PAD_X * 2;
  const left = Math.round(x - width * ax);
  const top = Math.round(y - LABEL_HEIGHT * ay);
  prims.rect(left, top, width, LABEL_HEIGHT, background);
  texts.add(text, left + LABEL_PAD_X, top + LABEL_HEIGHT / 2, foreground, 0, 0.5);
  return { left, top, width, height: LABEL_HEIGHT };
}
