import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Select, SimpleGrid, Stack, TextInput, Textarea } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { useCreateTransaction } from '../../api/funded-users/create-transaction';
import { TRANSACTION_FUTURE_SLACK_MS, TRANSACTION_TYPE_LABELS, TRANSACTION_TYPES, isNegativeText, transactionAmountSchema, transactionTypeSchema } from '../../api/contracts/funded-users';
import { applyServerFieldErrors } from '../../ui/form-errors';
import { toastSuccess } from '../../ui/toast';

/** `YYYY-MM-DDTHH:mm` in local time, the value of a datetime-local input. */
export function localDateTimeValue(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const transactionFormSchema = z
  .object({
    type: transactionTypeSchema,
    // Kept as typed text, exactly (thousands separators dropped): the contract's column rules apply.
    amount: z.preprocess((v) => (v === null || v === undefined ? undefined : String(v).replace(/[,\s]/g, '') || undefined), transactionAmountSchema),
    currency: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9]{2,10}$/, 'Use a currency code such as USDT, USD or XBT'),
    occurredAt: z.string().min(1, 'Enter when it happened'),
    note: z.string().max(500, 'Note must be at most 500 characters'),
  })
  .superRefine((v, ctx) => {
    if (v.type !== 'adjustment' && isNegativeText(v.amount)) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'Only adjustments may be negative' });
    const t = new Date(v.occurredAt).getTime();
    if (Number.isNaN(t)) ctx.addIssue({ code: 'custom', path: ['occurredAt'], message: 'Enter when it happened' });
    else if (t > Date.now() + TRANSACTION_FUTURE_SLACK_MS) ctx.addIssue({ code: 'custom', path: ['occurredAt'], message: 'Cannot be in the future' });
  });
type TransactionFormInput = z.input<typeof transactionFormSchema>;
type TransactionFormValues = z.output<typeof transactionFormSchema>;

const TYPE_DATA = TRANSACTION_TYPES.map((t) => ({ value: t, label: TRANSACTION_TYPE_LABELS[t] }));

/**
 * "Add transaction": `POST /v1/users/transactions` on one key (`userId` when an admin records for
 * a user). The list refreshes after success (SPEC §7); failure toasts 'Unable to add new transaction.'
 */
export function TransactionForm({ apiKeyId, userId }: { apiKeyId: string; userId?: string }) {
  const create = useCreateTransaction();
  const defaults = (): TransactionFormInput => ({ type: 'deposit', amount: '', currency: 'USDT', occurredAt: localDateTimeValue(new Date()), note: '' });
  const form = useForm<TransactionFormInput, unknown, TransactionFormValues>({ resolver: zodResolver(transactionFormSchema), defaultValues: defaults() });
  const { errors } = form.formState;

  const submit = form.handleSubmit((v) =>
    create.mutate(
      {
        ...(userId ? { userId } : {}),
        apiKeyId,
        type: v.type,
        amount: v.amount,
        currency: v.currency,
        occurredAt: new Date(v.occurredAt).toISOString(),
        ...(v.note.trim() ? { note: v.note.trim() } : {}),
      },
      {
        onSuccess: () => {
          toastSuccess('Transaction added');
          form.reset({ ...defaults(), type: v.type, currency: v.currency });
        },
        onError: (error) => applyServerFieldErrors(error, form.setError, ['type', 'amount', 'currency', 'occurredAt', 'note']),
      },
    ),
  );

  return (
    <form onSubmit={submit} noValidate aria-label="Add transaction">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 4 }}>
          <Controller
            control={form.control}
            name="type"
            render={({ field }) => (
              <Select label="Type" data={TYPE_DATA} allowDeselect={false} value={field.value} onChange={(v) => v && field.onChange(v)} error={errors.type?.message} />
            )}
          />
          <Controller
            control={form.control}
            name="amount"
            render={({ field }) => (
              <TextInput
                label="Amount"
                inputMode="decimal"
                autoComplete="off"
                value={field.value === null || field.value === undefined ? '' : String(field.value)}
                onChange={(e) => field.onChange(e.currentTarget.value)}
                onBlur={field.onBlur}
                error={errors.amount?.message}
              />
            )}
          />
          <TextInput label="Currency" autoComplete="off" {...form.register('currency')} error={errors.currency?.message} />
          <TextInput label="Date and time" type="datetime-local" {...form.register('occurredAt')} error={errors.occurredAt?.message} />
        </SimpleGrid>
        <Textarea label="Note" autosize minRows={1} maxRows={4} {...form.register('note')} error={errors.note?.message} />
        <Group>
          <Button type="submit" loading={create.isPending} disabled={create.isPending}>
            Add transaction
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
