import { z } from 'zod';
import { dec, str } from '../../api/contracts/decimal';
import { referralIncomeSchema } from '../../api/contracts/referrals';
import { parseMonthUtc } from '../../ui/referral-format';

const DECIMAL_TEXT = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,3})?$/;

/**
 * What an amount field holds as decimal text, exactly (issue 22: no `Number(...)`): thousands
 * separators, a `$` and spaces are dropped, "1e3" reads "1000". Anything else (an empty field,
 * text) becomes null, which fails with the field's required message (SPEC §5).
 */
export function toDecimalTextOrNull(value: unknown): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value !== 'string') return null;
  const cleaned = value.replace(/[,$\s]/g, '');
  if (!DECIMAL_TEXT.test(cleaned)) return null;
  // ".5" and "5." are what a person types for 0.5 and 5.
  const padded = cleaned.replace(/^(-?)\./, '$10.').replace(/\.(?=$|[eE])/, '');
  return str(dec(padded));
}

/**
 * An amount field: required (`required` when empty or not a number), then the contract's own checks
 * (no more decimals than the column keeps, the bounds), kept as the exact decimal string.
 */
export const amountField = (required: string, contract: z.ZodType<string, string | number>) =>
  z.preprocess(
    (v: string) => toDecimalTextOrNull(v),
    z.string({ error: required }).transform((text, ctx): string => {
      const checked = contract.safeParse(text);
      if (checked.success) return checked.data;
      for (const issue of checked.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
      return z.NEVER;
    }),
  );

/** The 'Referrer monthly income' form (SPEC §2, §5): a month (parsed as UTC) and an exact amount. */
export const incomeFormSchema = z.object({
  date: z.preprocess((v: string | null) => (typeof v === 'string' ? parseMonthUtc(v) : null), z.date({ error: 'Please enter date' })),
  income: amountField('Please enter income', referralIncomeSchema),
});

/** What the fields hold: the month picker's `YYYY-MM-DD` (or null) and the amount input's text. */
export interface IncomeFormValues {
  date: string | null;
  income: string;
}
export type IncomeFormOutput = z.output<typeof incomeFormSchema>;
