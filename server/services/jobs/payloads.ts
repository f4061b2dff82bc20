import { z } from 'zod';
import { exchangeIdSchema, networkSchema } from '../../../src/api/contracts/common';
import { decimalStringSchema } from '../../../src/api/contracts/decimal';
import { managedBracketSchema, sideSchema } from '../../../src/api/contracts/trading';

/**
 * The payload of each job kind (issue 23): a zod schema is the one source of the payload's type
 * (`z.infer`). The runner parses a job's payload with its kind's schema when it claims the job (a
 * payload that does not parse fails the job, naming the field), and every write of a payload —
 * the row's insert, `ctx.save` — parses it first. Money, prices and sizes stay decimal strings.
 */

/** What a payload is in the `jobs.payload` column (a JSON object). */
export type JobPayload = Record<string, unknown>;

/** A job kind: its name in `jobs.kind` and the schema of its payload. */
export interface JobKind<P extends JobPayload> {
  readonly kind: string;
  readonly payload: z.ZodType<P>;
}

/** Anything else in the column (a kind of the tests): a JSON object, nothing more. */
export const anyJobPayloadSchema: z.ZodType<JobPayload> = z.record(z.string(), z.unknown());

/** A payload that does not parse with its kind's schema; the message names the fields. */
export class InvalidJobPayloadError extends Error {
  constructor(
    readonly kind: string,
    readonly issues: readonly z.core.$ZodIssue[],
  ) {
    super(`Invalid ${kind} job payload: ${describeIssues(issues)}`);
    this.name = 'InvalidJobPayloadError';
  }
}

/** `legs.0.qty: Must be a decimal number…; apiKeyId: Invalid input: expected string, received undefined`. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((i) => `${i.path.length ? i.path.map(String).join('.') : '(payload)'}: ${i.message}`).join('; ');
}

/** Parses a payload read from the column: the typed payload, or the error naming what is wrong. */
export function readJobPayload<P extends JobPayload>(kind: JobKind<P>, raw: unknown): { ok: true; payload: P } | { ok: false; error: InvalidJobPayloadError } {
  const parsed = kind.payload.safeParse(raw);
  return parsed.success ? { ok: true, payload: parsed.data } : { ok: false, error: new InvalidJobPayloadError(kind.kind, parsed.error.issues) };
}

/** A payload about to be written (insert, save): parsed first; throws `InvalidJobPayloadError`. */
export function writeJobPayload<P extends JobPayload>(kind: JobKind<P>, payload: P): P {
  const read = readJobPayload(kind, payload);
  if (!read.ok) throw read.error;
  return read.payload;
}

// ------------------------------------------------------------------------------------ alerts

/**
 * `alerts:<exchange>` (alert-watch.ts): `seenUntil` is when the evaluator last heard the exchange's
 * stream (ms). It is progress, not state: a value that is not a time reads as absent (the job then
 * catches up from its own creation), so a damaged row never stops an exchange's alerts.
 */
export const alertJobPayloadSchema = z.object({
  seenUntil: z.number().int().nonnegative().optional().catch(undefined),
});
export type AlertJobPayload = z.infer<typeof alertJobPayloadSchema>;

// ------------------------------------------------------------------------------------ brackets

/** A price or size of a leg: a decimal string ("65000.5"), positive. */
const positive = () => decimalStringSchema({ maxScale: 18 });

/** A leg the guard places when the entry fills (its exchange client id is the bracket's, plus the role). */
export const guardLegSchema = z.object({
  role: z.enum(['stop-loss', 'take-profit']),
  type: z.enum(['STOP_MARKET', 'TAKE_PROFIT']),
  qty: positive(),
  price: positive().nullable(),
  /** `'0'` only when the planned leg had neither a trigger nor a price (guardLegs). */
  triggerPrice: decimalStringSchema({ maxScale: 18, allowZero: true }),
  clientOrderId: z.string().min(1),
});
export type GuardLeg = z.infer<typeof guardLegSchema>;

/** `bracket:<bracketId>` (bracket-guard.ts): the bracket as planned and how far the guard got. */
export const bracketJobPayloadSchema = z.object({
  apiKeyId: z.uuid(),
  exchange: exchangeIdSchema,
  network: networkSchema,
  symbol: z.string().min(1),
  side: sideSchema,
  bracketId: z.string().min(1),
  /** The entry's order type (a conditional entry is looked up among conditional orders). */
  entryType: z.enum(['MARKET', 'LIMIT', 'STOP_MARKET', 'STOP_LIMIT']).optional(),
  /** Break-even / trailing; null when the bracket is only guarded. */
  options: managedBracketSchema.nullable(),
  /** The stop and targets as planned (placed by the request for a market entry, by the job for a resting one). */
  legs: z.array(guardLegSchema),
  /** The request finished placing (false: it may have died mid-way; the job reconciles). */
  armed: z.boolean(),
  /** The stop and targets are on the exchange. */
  protectionPlaced: z.boolean(),
  /** The entry has filled (in part). */
  entrySeen: z.boolean().optional(),
  beDone: z.boolean().optional(),
  /** The stop price the trail last set. */
  trailStop: positive().optional(),
});
export type BracketJobPayload = z.infer<typeof bracketJobPayloadSchema>;

export const BRACKET_JOB_KIND = 'bracket';
export const BRACKET_JOB: JobKind<BracketJobPayload> = { kind: BRACKET_JOB_KIND, payload: bracketJobPayloadSchema };

/**
 * What the lists read of a bracket row (`GET …/managed`), finished ones included: rows written before
 * every bracket was guarded carry `options.cancelOnClose` and no legs, armed or protectionPlaced.
 */
export const listedBracketPayloadSchema = bracketJobPayloadSchema
  .pick({ bracketId: true, symbol: true, side: true, entrySeen: true, beDone: true })
  .extend({
    options: z.object({ breakEven: z.boolean(), trail: managedBracketSchema.shape.trail }).nullable().optional(),
    legs: z.array(guardLegSchema).optional(),
    protectionPlaced: z.boolean().optional(),
  });
export type ListedBracketPayload = z.infer<typeof listedBracketPayloadSchema>;
