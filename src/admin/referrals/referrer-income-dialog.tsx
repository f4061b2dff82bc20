import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, NumberInput, SimpleGrid, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { Currency, Network } from '../../api/contracts/common';
import type { ReferralExchange, ReferralMonthlyRecord } from '../../api/contracts/referrals';
import { useSubmitReferrerIncome } from '../../api/referrals/submit-referrer-income';
import { MonthPickerInput } from '../../ui/dates';
import { applyServerFieldErrors } from '../../ui/form-errors';
import { currentUtcMonth, formatIncome, formatVolume, recommendedPercentage } from '../../ui/referral-format';
import { toastSuccess } from '../../ui/toast';
import { incomeFormSchema, type IncomeFormOutput, type IncomeFormValues } from './income-form-schema';

const emptyForm = (): IncomeFormValues => ({ date: currentUtcMonth(), income: '' });

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );
}

/**
 * 'Referrer monthly income' (SPEC §2): the row's exchange volume, exchange income, referrer volume
 * and the recommended percentage; a month (default: the current UTC month) and an income. The form
 * resets every time the dialog opens; on success the server's message is toasted, the dialog closes
 * and the referral queries refetch (SPEC §4).
 */
export function ReferrerIncomeDialog({
  record,
  onClose,
  userId,
  exchange,
  network,
  currency,
}: {
  /** The row whose 'Submit income' opened the dialog; null = closed. */
  record: ReferralMonthlyRecord | null;
  onClose: () => void;
  userId: string;
  exchange: ReferralExchange;
  network: Network;
  currency: Currency;
}) {
  const submit = useSubmitReferrerIncome();
  const form = useForm<IncomeFormValues, unknown, IncomeFormOutput>({ resolver: zodResolver(incomeFormSchema), defaultValues: emptyForm() });
  const { errors } = form.formState;
  const opened = record !== null;

  useEffect(() => {
    if (opened) form.reset(emptyForm());
  }, [opened, record, form]);

  const onSubmit = form.handleSubmit((values) =>
    submit.mutate(
      { body: { exchange, type: 'user', userId, date: values.date.toISOString(), income: values.income }, network },
      {
        onSuccess: ({ message }) => {
          toastSuccess(message);
          onClose();
        },
        onError: (error) => applyServerFieldErrors(error, form.setError, ['date', 'income']),
      },
    ),
  );

  const pct = record ? recommendedPercentage(record.totalReferrerVolume, record.totalExchangeVolume) : null;
  return (
    <Modal opened={opened} onClose={onClose} title="Referrer monthly income" centered>
      {record ? (
        <form onSubmit={onSubmit} noValidate aria-label="Referrer monthly income">
          <Stack gap="md">
            <SimpleGrid cols={2} spacing="sm">
              <Figure label="Exchange volume" value={formatVolume(record.totalExchangeVolume, currency)} testId="income-exchange-volume" />
              <Figure label="Exchange income" value={formatIncome(record.totalExchangeIncome)} testId="income-exchange-income" />
              <Figure label="Referrer volume" value={formatVolume(record.totalReferrerVolume, currency)} testId="income-referrer-volume" />
              <Figure label="Recommended referrer income" value={pct === null ? 'n/a' : `${pct}%`} testId="income-recommended" />
            </SimpleGrid>
            <Controller
              control={form.control}
              name="date"
              render={({ field }) => (
                <MonthPickerInput
                  label="Date"
                  placeholder="Pick a month"
                  valueFormat="MM/YYYY"
                  value={field.value}
                  onChange={(v) => field.onChange(v)}
                  onBlur={field.onBlur}
                  error={errors.date?.message}
                  clearable
                  clearButtonProps={{ 'aria-label': 'Clear date' }}
                />
              )}
            />
            <Controller
              control={form.control}
              name="income"
              render={({ field }) => (
                <NumberInput
                  label="Income"
                  prefix="$"
                  thousandSeparator=","
                  decimalScale={2}
                  min={0}
                  value={field.value}
                  // The typed text, exactly: Mantine gives a number only for short values, whose text is what was typed.
                  onChange={(v) => field.onChange(String(v))}
                  onBlur={field.onBlur}
                  error={errors.income?.message}
                />
              )}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose} disabled={submit.isPending}>
                Cancel
              </Button>
              <Button type="submit" loading={submit.isPending}>
                Submit
              </Button>
            </Group>
          </Stack>
        </form>
      ) : null}
    </Modal>
  );
}
