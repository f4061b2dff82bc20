import type { Alert } from '../../api/contracts/alerts';
import type { Drawing } from '../../engine';

/**
 * Alerts tied to chart drawings (issue 13): an alert set on a horizontal line follows the line, one
 * set on a rectangle's top or bottom edge follows that edge. The link is the alert's `drawingId`:
 * the line's id, or `<rectangle id>:top` / `:bottom`.
 */

export type Edge = 'top' | 'bottom';

export const drawingLink = (drawingId: string, edge?: Edge): string => (edge ? `${drawingId}:${edge}` : drawingId);

/** The drawing and edge an alert follows, or null for a free alert. */
export function parseDrawingLink(link: string | null): { drawingId: string; edge: Edge | null } | null {
  if (!link) return null;
  const m = /^(.*):(top|bottom)$/.exec(link);
  return m ? { drawingId: m[1]!, edge: m[2] as Edge } : { drawingId: link, edge: null };
}

/** The price an alert on this drawing (and edge) sits at; null when the drawing has no such price. */
export function drawingPrice(drawing: Drawing, edge: Edge | null): number | null {
  if (drawing.kind === 'line') return edge ? null : drawing.price;
  if (drawing.kind === 'rectangle' && edge) return edge === 'top' ? Math.max(drawing.p1.price, drawing.p2.price) : Math.min(drawing.p1.price, drawing.p2.price);
  return null;
}

/** What an alert can be tied to on this drawing: the line itself, or the rectangle's two edges. */
export function alertTargets(drawing: Drawing): Array<{ link: string; label: string; price: number }> {
  if (drawing.kind === 'line') return [{ link: drawingLink(drawing.id), label: 'Alert on this line', price: drawing.price }];
  if (drawing.kind === 'rectangle') {
    return (['top', 'bottom'] as const).map((edge) => ({ link: drawingLink(drawing.id, edge), label: `Alert on the ${edge} edge`, price: drawingPrice(drawing, edge)! }));
  }
  return [];
}

/** The active alerts tied to `drawing` whose price is no longer the drawing's, with where they go. */
export function alertsToFollow(alerts: readonly Alert[], drawing: Drawing): Array<{ alert: Alert; price: number }> {
  const out: Array<{ alert: Alert; price: number }> = [];
  for (const alert of alerts) {
    if (alert.status !== 'active') continue;
    const link = parseDrawingLink(alert.drawingId);
    if (!link || link.drawingId !== drawing.id) continue;
    const price = drawingPrice(drawing, link.edge);
    if (price !== null && price > 0 && price !== alert.triggerPrice) out.push({ alert, price });
  }
  return out;
}

/** Active alerts tied to a drawing that was deleted: they stay, untied. */
export const alertsOfDrawing = (alerts: readonly Alert[], drawingId: string): Alert[] =>
  alerts.filter((a) => a.status === 'active' && parseDrawingLink(a.drawingId)?.drawingId === drawingId);
