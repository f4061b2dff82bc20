import { withAlpha, type Rgba } from '../../core/colors';
import type { PrimitiveList, TextList } from './primitive-list';

/** Horizontal extent of a label on the time axis (CSS px). */
export interface Span {
  left: number;
  right: number;
}

/** Clear space kept between the crosshair's time label and an axis label beside it (CSS px). */
export const LABEL_GAP = 4;

/** Whether two labels on one axis row come closer than `gap`. */
export function spansCollide(a: Span, b: Span, gap = LABEL_GAP): boolean {
  return a.left < b.right + gap && b.left < a.right + gap;
}

/** A label drawn on the time axis that the crosshair's time label may hide: a text, and maybe its box. */
interface GuardedLabel extends Span {
  texts: TextList;
  slot: number;
  textColor: Rgba;
  prims: PrimitiveList | null;
  prim: number;
  boxColor: Rgba;
  hidden: boolean;
}

/**
 * The time-axis labels (tick labels, time-line labels) and which of them the crosshair's time label
 * covers. Hiding one sets its alpha to 0 in place — same slot, same string — so the renderer neither
 * re-lays-out text nor re-batches, and a pointer move still touches only what changed: lists are
 * re-uploaded only when a label actually appears or disappears.
 */
export class TimeAxisLabelGuard {
  private labels: GuardedLabel[] = [];

  /** Forget the labels of `texts` (its list is being rebuilt). */
  clear(texts: TextList): void {
    this.labels = this.labels.filter((l) => l.texts !== texts);
  }

  /** Registers the label just added at `slot` of `texts` (and its box, primitive `prim` of `prims`). */
  add(span: Span, texts: TextList, slot: number, box?: { prims: PrimitiveList; prim: number }): void {
    const item = texts.items[slot];
    this.labels.push({
      left: span.left,
      right: span.right,
      texts,
      slot,
      textColor: item.color,
      prims: box?.prims ?? null,
      prim: box?.prim ?? -1,
      boxColor: box ? box.prims.colorAt(box.prim) : 0,
      hidden: false,
    });
  }

  /** Hides the labels colliding with the crosshair's time label (`null`: no crosshair) and shows the rest. */
  apply(crosshair: Span | null): void {
    for (const l of this.labels) {
      const hide = crosshair !== null && spansCollide(l, crosshair);
      if (hide === l.hidden) continue;
      l.hidden = hide;
      l.texts.setColor(l.slot, hide ? withAlpha(l.textColor, 0) : l.textColor);
      l.prims?.setColor(l.prim, hide ? withAlpha(l.boxColor, 0) : l.boxColor);
    }
  }

  /** Labels hidden now (tests). */
  hiddenSlots(texts: TextList): number[] {
    return this.labels.filter((l) => l.texts === texts && l.hidden).map((l) => l.slot);
  }
}
