/** A label to place on one vertical axis row: where it wants its centre, and its height (CSS px). */
export interface StackItem {
  y: number;
  height: number;
  /** Stays where it is (the last-price label): the others make room around it. */
  fixed?: boolean;
  /** Where it sorts among the others, when not its centre: the price's y of a label hanging below it (default `y`). */
  at?: number;
}

/** Clear space kept between two stacked labels (CSS px). */
export const STACK_GAP = 2;

interface Cluster {
  /** Item indexes, top to bottom. */
  items: number[];
  top: number;
  height: number;
}

/**
 * Vertical centres for labels that would overlap, in the order given: labels that touch form a
 * cluster laid out top to bottom in price order, centred where its members want to be on average
 * (least total displacement) — or, when it holds a fixed label, around that one. A cluster is kept
 * inside `bounds` unless it holds a fixed label. Labels that collide with nothing do not move, so a
 * chart whose labels are apart draws exactly as before. O(n log n), for the dozen lines of a chart.
 */
export function stackLabels(items: readonly StackItem[], bounds: { top: number; bottom: number } | null = null, gap = STACK_GAP): number[] {
  const at = (i: number) => items[i].at ?? items[i].y;
  const order = items.map((_, i) => i).sort((a, b) => at(a) - at(b) || Number(items[b].fixed ?? false) - Number(items[a].fixed ?? false) || a - b);
  const clusters: Cluster[] = [];
  for (const i of order) {
    clusters.push(place({ items: [i], top: 0, height: items[i].height }, items, bounds));
    while (clusters.length > 1) {
      const b = clusters[clusters.length - 1];
      const a = clusters[clusters.length - 2];
      if (a.top + a.height + gap <= b.top) break;
      clusters.pop();
      clusters[clusters.length - 1] = place({ items: [...a.items, ...b.items], top: 0, height: a.height + gap + b.height }, items, bounds, gap);
    }
  }
  const out = new Array<number>(items.length);
  for (const c of clusters) {
    const only = c.items[0];
    // A label alone where it wanted to be keeps its exact y (no rounding drift: the same pixels as unstacked).
    if (c.items.length === 1 && c.top === items[only].y - items[only].height / 2) {
      out[only] = items[only].y;
      continue;
    }
    let top = c.top;
    for (const i of c.items) {
      out[i] = top + items[i].height / 2;
      top += items[i].height + gap;
    }
  }
  return out;
}

/** Positions a cluster: on its fixed member if it has one, else at the mean of its members' wishes, clamped to the bounds. */
function place(c: Cluster, items: readonly StackItem[], bounds: { top: number; bottom: number } | null, gap = STACK_GAP): Cluster {
  let offset = 0;
  let sum = 0;
  let anchored: number | null = null;
  for (const i of c.items) {
    const wantTop = items[i].y - items[i].height / 2;
    if (items[i].fixed && anchored === null) anchored = wantTop - offset;
    sum += wantTop - offset;
    offset += items[i].height + gap;
  }
  if (anchored !== null) return { ...c, top: anchored };
  let top = sum / c.items.length;
  if (bounds) top = Math.max(bounds.top, Math.min(bounds.bottom - c.height, top));
  return { ...c, top };
}
