import { z } from 'zod';
import { parseMonthUtc } from '../../ui/referral-format';

/** Non-numbers (empty field, text) become null, which fails with the required message (SPEC §5). */
export function toNumberOrNull(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value.replace(/,/g, ''));
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** The 'Referrer monthly income' form (SPEC §2, §5): a month (parsed as UTC) and a number. */
export const incomeFormSchema = z.object({
  date: z.preprocess((v: string | null) => (typeof v === 'string' ? parseMonthUtc(v) : null), z.date({ error: 'Please enter date' })),
  income: z.preprocess((v: number | string) => toNumberOrNull(v), z.number({ error: 'Please enter income' }).min(0, 'Income cannot be negative')),
});

/** What the fields hold: the month picker's `YYYY-MM-DD` (or null) and the number input's value. */
export interface IncomeFormValues {
  date: string | null;
  income: number | string;
}
export type IncomeFormOutput = z.output<typeof incomeFormSchema>;
