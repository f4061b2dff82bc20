import { get, set, type FieldErrors, type Resolver } from 'react-hook-form';
import { z } from 'zod';
import { dec, isZero } from '../../../api/contracts/decimal';
import { sideSchema, timeInForceSchema, type Side, type TimeInForce } from '../../../api/contracts/trading';
import type { OrderEntryType } from '../../../state/user-settings';
import { MANAGED_DRAFT_OFF, managedOf, type ManagedDraft } from '../managed-bracket-fields';
import { wrongSides } from '../order-entry-text';
import { isNumberText, notionalProblem, qtyProblem, type EntryTerms } from '../order-math';

/**
 * Order entry's form model (react-hook-form): every field as the trader typed it — prices and sizes
 * stay text, so "0.", "" or "-" never break anything and nothing is sent until they read as numbers.
 * Field names follow the contracts (`stopLoss.triggerPrice`, `takeProfits.0.price`, `to`, `count`),
 * so a problem found here and a server's 400 `fields` land at the same field.
 */
export interface OrderEntryValues {
  side: Side;
  /** One text for a limit's price, a bracket's limit entry and a ladder's first price: it stays when the type changes. */
  price: string;
  triggerPrice: string;
  stopLoss: { triggerPrice: string };
  qty: string;
  sizeMode: 'risk' | 'qty';
  riskPercent: number;
  entryKind: 'MARKET' | 'LIMIT';
  takeProfits: Array<{ price: string; qtyPercent: number }>;
  leverage: number;
  reduceOnly: boolean;
  postOnly: boolean;
  timeInForce: TimeInForce;
  to: string;
  count: number;
  distribution: 'linear' | 'weighted';
  managed: ManagedDraft;
}

export const orderEntryDefaults = (riskPercent: number): OrderEntryValues => ({
  side: 'BUY',
  price: '',
  triggerPrice: '',
  stopLoss: { triggerPrice: '' },
  qty: '',
  sizeMode: 'risk',
  riskPercent,
  entryKind: 'MARKET',
  takeProfits: [{ price: '', qtyPercent: 100 }],
  leverage: 10,
  reduceOnly: false,
  postOnly: false,
  timeInForce: 'GTC',
  to: '',
  count: 5,
  distribution: 'linear',
  managed: MANAGED_DRAFT_OFF,
});

/** What the checks need beyond the fields: the type shown, the pair's terms, the price the order is judged at, the size it would send. */
export interface OrderEntryContext {
  type: OrderEntryType;
  terms: EntryTerms;
  entryPrice: string;
  size: string;
  /** "Managed by server" is offered (FF_ENABLE_SEMI_AUTO) and the key allows it: its choices are checked and sent. */
  managedOn: boolean;
}

export const MUST_BE_ABOVE_ZERO = 'Must be above 0';

/** A stop and take-profits on the wrong side of the entry, by field (said as they are typed, and checked when sent). */
export const sideProblems = (v: Pick<OrderEntryValues, 'side' | 'stopLoss' | 'takeProfits'>, entryPrice: string) =>
  wrongSides({ side: v.side, entry: entryPrice, stop: v.stopLoss.triggerPrice, targets: v.takeProfits.map((t) => t.price) });

/** The live message under a leverage field (not a check on sending: the leverage is set with its own button). */
export function leverageProblem(leverage: number, maxLeverage: number, symbol: string): string | null {
  return !(leverage >= 1) ? 'At least 1×' : leverage > maxLeverage ? `At most ${maxLeverage}× on ${symbol}` : null;
}

// Whatever number an input gave (the checks below judge it, as the panel always did).
const aNumber = z.custom<number>((n) => typeof n === 'number');
const valuesSchema = z.object({
  side: sideSchema,
  price: z.string(),
  triggerPrice: z.string(),
  stopLoss: z.object({ triggerPrice: z.string() }),
  qty: z.string(),
  sizeMode: z.enum(['risk', 'qty']),
  riskPercent: aNumber,
  entryKind: z.enum(['MARKET', 'LIMIT']),
  takeProfits: z.array(z.object({ price: z.string(), qtyPercent: aNumber })),
  leverage: aNumber,
  reduceOnly: z.boolean(),
  postOnly: z.boolean(),
  timeInForce: timeInForceSchema,
  to: z.string(),
  count: aNumber,
  distribution: z.enum(['linear', 'weighted']),
  managed: z.object({ breakEven: z.boolean(), trail: z.boolean(), trailMode: z.enum(['price', 'percent']), trailValue: z.string() }),
});

/**
 * The checks made when the order is sent, each said at its field. The first issue at a field wins:
 * a typed 0 before a wrong side. A 0 is refused in every price field the form holds, shown for this
 * type or not, as before.
 */
export function orderEntrySchema(ctx: OrderEntryContext) {
  const bracket = ctx.type === 'bracket-order';
  const ladder = ctx.type === 'ladder-order';
  return valuesSchema.superRefine((v, issues) => {
    const at = (path: string, message: string) => issues.addIssue({ code: 'custom', path: path.split('.'), message });
    const prices: Array<[string, string]> = [[bracket ? 'entry.price' : 'price', v.price], ['triggerPrice', v.triggerPrice], ['stopLoss.triggerPrice', v.stopLoss.triggerPrice], ['to', v.to]];
    for (const [path, text] of prices) if (isNumberText(text) && isZero(dec(text))) at(path, MUST_BE_ABOVE_ZERO);
    const wrong = bracket ? sideProblems(v, ctx.entryPrice) : {};
    for (const [path, message] of Object.entries(wrong)) at(path, message);
    // With the stop on the wrong side no size can be computed: that, not the size, is the problem.
    const size = qtyProblem(ctx.size, ctx.terms);
    if (size && !(bracket && v.sizeMode === 'risk' && wrong['stopLoss.triggerPrice'])) at('qty', size);
    // Below the exchange's minimum order value it would be refused: said here (a ladder's rungs are checked by the server).
    const value = size || ladder ? null : notionalProblem(ctx.size, ctx.entryPrice, ctx.terms, !bracket && v.reduceOnly);
    if (value) at('qty', value);
    if (bracket) {
      if (!isNumberText(v.stopLoss.triggerPrice)) at('stopLoss.triggerPrice', 'Enter the stop-loss');
      if (v.entryKind === 'LIMIT' && !isNumberText(v.price)) at('entry.price', 'Enter the entry price');
      if (v.takeProfits.reduce((a, t) => a + Math.round(t.qtyPercent * 100), 0) !== 10_000) at('takeProfits', 'Take-profit sizes must add up to 100%');
      v.takeProfits.forEach((t, i) => {
        if (!isNumberText(t.price)) at(`takeProfits.${i}.price`, 'Enter a price');
      });
      const managed = ctx.managedOn ? managedOf(v.managed).problem : null;
      if (managed) at('managed', managed);
    } else if (ladder) {
      if (!isNumberText(v.price)) at('price', 'Enter the first price');
      if (!isNumberText(v.to)) at('to', 'Enter the last price');
    } else {
      if ((ctx.type === 'limit' || ctx.type === 'stop-limit' || ctx.type === 'take-profit') && !isNumberText(v.price)) at('price', 'Enter a price');
      if (ctx.type !== 'market' && ctx.type !== 'limit' && !isNumberText(v.triggerPrice)) at('triggerPrice', 'Enter a trigger price');
    }
  });
}

/**
 * The schema as the form's resolver (its context: `OrderEntryContext`, kept current by the panel).
 * Not zodResolver: that one nests a list's own message under `root` only when it knows the list's
 * fields, and a field may get both a sum problem (`takeProfits`) and one per target.
 */
export const orderEntryResolver: Resolver<OrderEntryValues, { current: OrderEntryContext | null }> = (values, context) => {
  const parsed = orderEntrySchema(context!.current!).safeParse(values);
  if (parsed.success) return { values: parsed.data, errors: {} };
  const errors: FieldErrors<OrderEntryValues> = {};
  for (const issue of parsed.error.issues) {
    const path = issue.path.join('.');
    const here = get(errors, path) as { message?: string } | undefined;
    // Keep what is nested under the field (a target's problem under the list's own).
    if (!here?.message) set(errors, path, { ...here, type: 'validate', message: issue.message });
  }
  return { values: {}, errors };
};

/** Take-profits after "Add take-profit": the sizes shared out again, the new one taking what is left. */
export function withTargetAdded(list: OrderEntryValues['takeProfits']): OrderEntryValues['takeProfits'] {
  const share = Math.floor(100 / (list.length + 1));
  return [...list.map((x) => ({ ...x, qtyPercent: share })), { price: '', qtyPercent: 100 - share * list.length }];
}

/** Take-profits after "Remove" (the last one): the sizes shared out again, the last one taking what is left. */
export function withTargetRemoved(list: OrderEntryValues['takeProfits']): OrderEntryValues['takeProfits'] {
  return list
    .slice(0, -1)
    .map((x, _j, arr) => ({ ...x, qtyPercent: Math.floor(100 / arr.length) }))
    .map((x, j, arr) => (j === arr.length - 1 ? { ...x, qtyPercent: 100 - Math.floor(100 / arr.length) * (arr.length - 1) } : x));
}
