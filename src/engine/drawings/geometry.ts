/** Distance from (px, py) to the segment (x1, y1)–(x2, y2). */
export function distToSegment(px: number, py: number, x1: number, y1: number, x2: number, y2: number): number {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const len2 = dx * dx + dy * dy;
  let t = len2 === 0 ? 0 : ((px - x1) * dx + (py - y1) * dy) / len2;
  t = Math.max(0, Math.min(1, t));
  const cx = x1 + t * dx;
  const cy = y1 + t * dy;
  return Math.hypot(px - cx, py - cy);
}

/** Distance from a point to a horizontal span [x1, x2] at height y (infinite beyond nothing). */
export function distToHSpan(px: number, py: number, x1: number, x2: number, y: number): number {
  const lo = Math.min(x1, x2);
  const hi = Math.max(x1, x2);
  const dx = px < lo ? lo - px : px > hi ? px - hi : 0;
  return Math.hypot(dx, py - y);
}

export function drawHandle(
  prims: { circle(cx: number, cy: number, r: number, fill: number, border: number, bw: number): void },
  x: number,
  y: number,
  fill: number,
  border: number,
  radius: number,
): void {
  prims.circle(x, y, radius, fill, border, 1.5);
}
