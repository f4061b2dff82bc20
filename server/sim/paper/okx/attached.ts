import type { PlaceRequest } from '../engine';
import type { Params } from '../params';
import type { VenueContext } from '../venue';
import { paramError } from './params';

/** An attached TP or SL as kept on its parent order until the parent fills. */
interface Attached {
  type: PlaceRequest['type'];
  trigger: string;
  price?: string;
}

/** `attachAlgoOrds` → the protective orders to place once the parent fills (validated now), as the parent's meta. */
export function attachMeta(p: Params): Record<string, string> {
  const list = attachedOf(p);
  return list.length ? { attach: JSON.stringify(list) } : {};
}

function attachedOf(p: Params): Attached[] {
  const list = p.values.attachAlgoOrds;
  if (list === undefined) return [];
  if (!Array.isArray(list) || list.length > 10) throw paramError('attachAlgoOrds');
  const out: Attached[] = [];
  for (const raw of list) {
    const a = p.child(raw ?? {});
    for (const [kind, trig, ordPx] of [['tp', 'tpTriggerPx', 'tpOrdPx'], ['sl', 'slTriggerPx', 'slOrdPx']] as const) {
      const trigger = a.decimal(trig);
      if (trigger === undefined) continue;
      const orderPx = a.opt(ordPx) ?? '-1';
      const market = orderPx === '-1';
      if (!market && a.decimal(ordPx) === undefined) throw paramError(ordPx);
      out.push({ type: kind === 'tp' ? (market ? 'TAKE_PROFIT_MARKET' : 'TAKE_PROFIT') : market ? 'STOP_MARKET' : 'STOP_LIMIT', trigger, ...(market ? {} : { price: orderPx }) });
    }
  }
  return out;
}

/**
 * Attached TP/SL are kept on the parent (`meta.attach`) and placed as reduce-only conditional orders
 * when the parent first fills (OKX activates them then), once: each carries `meta.parent`. The parent
 * is persisted with them, so a fill that happens while the server is down places them on the replay.
 */
export function watchAttached(venue: VenueContext): () => void {
  const { runtime } = venue;
  const engine = runtime.engine;
  return runtime.subscribe((account, events) => {
    if (account.network !== venue.network) return;
    const parents = events.filter((e) => e.type === 'order' && e.exec === 'fill' && e.order.meta.attach).map((e) => (e.type === 'order' ? e.order : null));
    if (!parents.length) return;
    void runtime
      .run(account, (id, at) => {
        for (const parent of parents) {
          if (!parent || engine.retained(id).some((o) => o.meta.parent === String(parent.id))) continue;
          const specs = JSON.parse(parent.meta.attach ?? '[]') as Attached[];
          for (const a of specs) {
            const req: PlaceRequest = {
              symbol: parent.symbol,
              side: parent.side === 'BUY' ? 'SELL' : 'BUY',
              type: a.type,
              qty: parent.qty,
              price: a.price,
              trigger: a.trigger,
              reduceOnly: true,
              meta: { okxOrdType: 'conditional', tdMode: parent.meta.tdMode ?? 'cross', parent: String(parent.id) },
              policy: { immediateTrigger: 'trigger' },
            };
            engine.place(id, req, at);
          }
        }
      })
      .catch(() => undefined);
  });
}
