import type { Drawing } from './records';
import { utilOf } from './registry';
import { HANDLE_HIT_RADIUS, HIT_MARGIN, type DrawingContext, type HitPart } from './types';

export interface DrawingHit {
  id: string;
  part: HitPart;
  handleId?: string;
  distance: number;
}

const RANK: Record<HitPart, number> = { handle: 0, line: 1, area: 2 };

/**
 * Hit-tests geometry, not pixels, and arbitrates (tldraw Geometry2d / lightweight-charts isBetterHit):
 * handles first (the selected drawing's before others'), then bodies; points beat lines beat areas;
 * then the nearest wins; on a tie the drawing on top (later in the list) wins. Margins are screen px.
 */
export function hitTestDrawings(
  drawings: readonly Drawing[],
  ctx: DrawingContext,
  x: number,
  y: number,
  selectedId: string | null,
): DrawingHit | null {
  let best: DrawingHit | null = null;
  let bestSelected = false;
  const better = (cand: DrawingHit, isSelected: boolean): boolean => {
    if (!best) return true;
    if (cand.part === 'handle' && best.part === 'handle' && isSelected !== bestSelected) return isSelected;
    if (RANK[cand.part] !== RANK[best.part]) return RANK[cand.part] < RANK[best.part];
    // ≤: with equal distance the later (top-most) drawing wins.
    return cand.distance <= best.distance;
  };
  for (const d of drawings) {
    const util = utilOf(d);
    const isSelected = d.id === selectedId;
    for (const h of util.handles(d, ctx)) {
      const dist = Math.hypot(h.x - x, h.y - y);
      if (dist <= HANDLE_HIT_RADIUS) {
        const cand: DrawingHit = { id: d.id, part: 'handle', handleId: h.id, distance: dist };
        if (better(cand, isSelected)) {
          best = cand;
          bestSelected = isSelected;
        }
      }
    }
    const body = util.hitBody(d, ctx, x, y, HIT_MARGIN);
    if (body) {
      const cand: DrawingHit = { id: d.id, part: body.part, distance: body.distance };
      if (better(cand, isSelected)) {
        best = cand;
        bestSelected = isSelected;
      }
    }
  }
  return best;
}
