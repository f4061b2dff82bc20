import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, SimpleGrid, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { tradeSettingsFieldsSchema, type TradeSettings } from '../../api/contracts/funded-users';
import { useUpdateTradeSettings } from '../../api/funded-users/update-trade-settings';
import { applyServerFieldErrors } from '../../ui/form-errors';
import { toastSuccess } from '../../ui/toast';

/**
 * An empty field means "no limit" (null). What is typed is kept as text, exactly (a limit of
 * 999,999,999,999.12345678 has more digits than a float holds); thousands separators are dropped.
 */
const optionalNumber = z.preprocess((v) => {
  if (v === undefined || v === null) return null;
  const text = String(v).replace(/[,\s]/g, '');
  return text === '' ? null : text;
}, z.union([z.string(), z.number()]).nullable());
const formSchema = z
  .object({
    maxRiskPercent: optionalNumber,
    maxPositionNotional: optionalNumber,
    maxLeverage: optionalNumber,
    dailyLossLimit: optionalNumber,
    allowedSymbols: z.array(z.string()),
  })
  // The contract's rules (ranges, symbol format) apply to what is typed.
  .pipe(tradeSettingsFieldsSchema);
type FormInput = z.input<typeof formSchema>;
type FormValues = z.output<typeof formSchema>;
const NUMBER_FIELDS = ['maxRiskPercent', 'maxPositionNotional', 'maxLeverage', 'dailyLossLimit'] as const;

const toInput = (s: TradeSettings): FormInput => ({
  maxRiskPercent: s.maxRiskPercent ?? '',
  maxPositionNotional: s.maxPositionNotional ?? '',
  maxLeverage: s.maxLeverage ?? '',
  dailyLossLimit: s.dailyLossLimit ?? '',
  allowedSymbols: s.allowedSymbols,
});

const LABELS: Record<(typeof NUMBER_FIELDS)[number], { label: string; description: string; suffix?: string; prefix?: string }> = {
  maxRiskPercent: { label: 'Max risk per trade', description: 'Loss if the stop-loss is hit, in % of the balance', suffix: '%' },
  maxPositionNotional: { label: 'Max position notional', description: 'Largest position size, in USD', prefix: '$' },
  maxLeverage: { label: 'Max leverage', description: 'Highest leverage a position may run at', suffix: '×' },
  dailyLossLimit: { label: 'Daily loss limit', description: 'After this loss in a UTC day, new positions are refused (USD)', prefix: '$' },
};

/** The limits the server enforces on the user's orders (DESIGN §4); empty = no limit. */
export function TradeSettingsForm({ settings }: { settings: TradeSettings }) {
  const update = useUpdateTradeSettings();
  const form = useForm<FormInput, unknown, FormValues>({ resolver: zodResolver(formSchema), defaultValues: toInput(settings) });
  const { errors } = form.formState;
  useEffect(() => form.reset(toInput(settings)), [form, settings]);

  const submit = form.handleSubmit((v) =>
    update.mutate(
      { userId: settings.userId, ...v },
      {
        onSuccess: () => toastSuccess('Trade settings saved'),
        onError: (error) => applyServerFieldErrors(error, form.setError, [...NUMBER_FIELDS, 'allowedSymbols']),
      },
    ),
  );

  return (
    <form onSubmit={submit} noValidate aria-label="Trade settings">
      <Stack gap="md" maw={760}>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {NUMBER_FIELDS.map((name) => (
            <Controller
              key={name}
              control={form.control}
              name={name}
              render={({ field }) => (
                <TextInput
                  label={LABELS[name].label}
                  description={LABELS[name].description}
                  placeholder="No limit"
                  inputMode="decimal"
                  autoComplete="off"
                  leftSection={LABELS[name].prefix}
                  rightSection={LABELS[name].suffix}
                  value={field.value === null || field.value === undefined ? '' : String(field.value)}
                  onChange={(e) => field.onChange(e.currentTarget.value)}
                  onBlur={field.onBlur}
                  error={errors[name]?.message}
                />
              )}
            />
          ))}
        </SimpleGrid>
        <Controller
          control={form.control}
          name="allowedSymbols"
          render={({ field }) => (
            <TagsInput
              label="Allowed symbols"
              description="Exchange symbols, e.g. BTCUSDT, XBTUSD, BTC-USDT-SWAP. Press Enter after each. Empty = every symbol."
              placeholder="Add a symbol"
              clearable
              value={field.value}
              onChange={(v) => field.onChange(v.map((s) => s.trim().toUpperCase()))}
              error={errors.allowedSymbols?.message ?? (Array.isArray(errors.allowedSymbols) ? errors.allowedSymbols.find(Boolean)?.message : undefined)}
            />
          )}
        />
        <Text size="xs" c="dimmed">
          {settings.updatedAt ? `Last changed ${new Date(settings.updatedAt).toLocaleString('en-GB')}` : 'No limits set yet.'} Reduce-only orders are always allowed.
        </Text>
        <Group>
          <Button type="submit" loading={update.isPending} disabled={update.isPending}>
            Save trade settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
