import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, FileButton, Group, List, Modal, NumberInput, Stack, Text, Textarea } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router-dom';
import { z } from 'zod';
import { exchangeMonthEntrySchema, type ReferralMonthlyRecord } from '../../api/contracts/referrals';
import { useReferralVolume } from '../../api/referrals/get-referral-volume';
import { useSetExchangeVolume } from '../../api/referrals/set-exchange-volume';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from '../../ui/data-table';
import { MonthPickerInput } from '../../ui/dates';
import { currentUtcMonth, formatIncome, formatMonth, formatVolume, parseMonthUtc } from '../../ui/referral-format';
import { sortRecords } from '../../ui/sort-records';
import { toastSuccess } from '../../ui/toast';
import { amountField } from './income-form-schema';
import { parseExchangeTotalsCsv, type ExchangeMonthEntry } from './exchange-totals-csv';
import { ReferralFilterBar } from './referral-filter-bar';
import { effectiveCurrency, readReferralFilters } from './referral-filters';

const monthFormSchema = z.object({
  date: z.preprocess((v: string | null) => (typeof v === 'string' ? parseMonthUtc(v) : null), z.date({ error: 'Please enter date' })),
  totalExchangeVolume: amountField('Enter the volume', exchangeMonthEntrySchema.shape.totalExchangeVolume),
  totalExchangeIncome: amountField('Enter the income', exchangeMonthEntrySchema.shape.totalExchangeIncome),
});
/** The amounts as the fields hold them: exact decimal text ('' when empty). */
type MonthFormValues = { date: string | null; totalExchangeVolume: string; totalExchangeIncome: string };

/**
 * The exchanges' own monthly totals per exchange, network and currency (what the referrer page shows
 * as Exchange Volume / Exchange Income), with the referrers' figures summed beside them. Months are
 * added or corrected one at a time, or imported from CSV (`month,volume,income`).
 */
export function ExchangeTotalsTab() {
  const [params, setParams] = useSearchParams();
  const filters = readReferralFilters(params, '');
  const currency = effectiveCurrency(filters);
  const volume = useReferralVolume({ type: 'exchange', exchange: filters.exchange, network: filters.network, currency });
  const save = useSetExchangeVolume();
  const [editing, setEditing] = useState<MonthFormValues | null>(null);
  const [importing, setImporting] = useState(false);
  const [sortStatus, setSortStatus] = useState<DataTableSortStatus<ReferralMonthlyRecord>>({ columnAccessor: 'date', direction: 'desc' });
  const records = useMemo(() => sortRecords(volume.data ?? [], sortStatus), [volume.data, sortStatus]);

  const saveEntries = (entries: ExchangeMonthEntry[], done: () => void) =>
    save.mutate(
      { exchange: filters.exchange, type: 'exchange', testnet: filters.network === 'TESTNET', currency, entries },
      {
        onSuccess: ({ message }) => {
          toastSuccess(message);
          done();
        },
      },
    );

  const columns: DataTableColumn<ReferralMonthlyRecord>[] = [
    { accessor: 'date', title: 'Date', sortable: true, render: (r) => formatMonth(r.date) },
    { accessor: 'totalExchangeVolume', title: 'Exchange Volume', sortable: true, textAlign: 'right', render: (r) => formatVolume(r.totalExchangeVolume, currency) },
    { accessor: 'totalExchangeIncome', title: 'Exchange Income', sortable: true, textAlign: 'right', render: (r) => formatIncome(r.totalExchangeIncome) },
    { accessor: 'totalReferrerVolume', title: 'Referred Volume (all referrers)', sortable: true, textAlign: 'right', render: (r) => formatVolume(r.totalReferrerVolume, currency) },
    { accessor: 'totalReferrerIncome', title: 'Referrer Income (all referrers)', sortable: true, textAlign: 'right', render: (r) => formatIncome(r.totalReferrerIncome) },
    {
      accessor: 'actions',
      title: '',
      textAlign: 'right',
      render: (r) => (
        <Button
          size="compact-sm"
          variant="light"
          onClick={() => setEditing({ date: r.date.slice(0, 10), totalExchangeVolume: r.totalExchangeVolume, totalExchangeIncome: r.totalExchangeIncome })}
        >
          Edit totals
        </Button>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <ReferralFilterBar
          exchange={filters.exchange}
          network={filters.network}
          currency={filters.currency}
          onChange={(patch) => {
            const next = { ...filters, ...patch };
            setParams(new URLSearchParams([['exchange', next.exchange], ['network', next.network], ['currency', next.currency]]), { replace: true });
          }}
        />
        <Group gap="sm">
          <Button variant="default" onClick={() => setImporting(true)}>
            Import CSV
          </Button>
          <Button onClick={() => setEditing({ date: currentUtcMonth(), totalExchangeVolume: '', totalExchangeIncome: '' })}>Add month</Button>
        </Group>
      </Group>
      <DataTable<ReferralMonthlyRecord>
        withTableBorder
        borderRadius="md"
        minHeight={180}
        idAccessor="date"
        records={records}
        columns={columns}
        fetching={volume.isFetching}
        noRecordsText="There are no records to display."
        sortStatus={sortStatus}
        onSortStatusChange={setSortStatus}
      />
      <MonthTotalsDialog
        values={editing}
        title={`${filters.exchange} ${filters.network} totals (${currency})`}
        pending={save.isPending}
        onClose={() => setEditing(null)}
        onSave={(entry) => saveEntries([entry], () => setEditing(null))}
      />
      <ImportTotalsDialog opened={importing} pending={save.isPending} onClose={() => setImporting(false)} onImport={(entries) => saveEntries(entries, () => setImporting(false))} />
    </Stack>
  );
}

function MonthTotalsDialog({
  values,
  title,
  pending,
  onClose,
  onSave,
}: {
  values: MonthFormValues | null;
  title: string;
  pending: boolean;
  onClose: () => void;
  onSave: (entry: ExchangeMonthEntry) => void;
}) {
  const form = useForm<MonthFormValues, unknown, z.output<typeof monthFormSchema>>({
    resolver: zodResolver(monthFormSchema),
    defaultValues: { date: null, totalExchangeVolume: '', totalExchangeIncome: '' },
  });
  const { errors } = form.formState;
  useEffect(() => {
    if (values) form.reset(values);
  }, [values, form]);
  const onSubmit = form.handleSubmit((v) => onSave({ date: v.date.toISOString(), totalExchangeVolume: v.totalExchangeVolume, totalExchangeIncome: v.totalExchangeIncome }));
  return (
    <Modal opened={values !== null} onClose={onClose} title={title} centered>
      <form onSubmit={onSubmit} noValidate aria-label="Exchange totals">
        <Stack gap="sm">
          <Controller
            control={form.control}
            name="date"
            render={({ field }) => <MonthPickerInput label="Month" valueFormat="MM/YYYY" value={field.value} onChange={field.onChange} error={errors.date?.message} />}
          />
          <Controller
            control={form.control}
            name="totalExchangeVolume"
            render={({ field }) => (
              <NumberInput
                label="Exchange volume"
                thousandSeparator=","
                min={0}
                value={field.value}
                onChange={(v) => field.onChange(String(v))}
                error={errors.totalExchangeVolume?.message}
              />
            )}
          />
          <Controller
            control={form.control}
            name="totalExchangeIncome"
            render={({ field }) => (
              <NumberInput
                label="Exchange income (USD)"
                prefix="$"
                thousandSeparator=","
                decimalScale={2}
                min={0}
                value={field.value}
                onChange={(v) => field.onChange(String(v))}
                error={errors.totalExchangeIncome?.message}
              />
            )}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={pending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function ImportTotalsDialog({
  opened,
  pending,
  onClose,
  onImport,
}: {
  opened: boolean;
  pending: boolean;
  onClose: () => void;
  onImport: (entries: ReturnType<typeof parseExchangeTotalsCsv>['entries']) => void;
}) {
  const [text, setText] = useState('');
  useEffect(() => {
    if (opened) setText('');
  }, [opened]);
  const parsed = useMemo(() => (text.trim() ? parseExchangeTotalsCsv(text) : null), [text]);
  return (
    <Modal opened={opened} onClose={onClose} title="Import exchange totals" size="lg" centered>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          CSV with a header row <code>month,volume,income</code>; months as YYYY-MM. Existing months are replaced. The exchange, network and currency are the
          page&apos;s filters.
        </Text>
        <FileButton accept=".csv,text/csv,text/plain" onChange={(file) => void file?.text().then(setText)}>
          {(props) => (
            <Button variant="default" {...props}>
              Choose a CSV file
            </Button>
          )}
        </FileButton>
        <Textarea label="CSV" autosize minRows={6} maxRows={14} value={text} onChange={(e) => setText(e.currentTarget.value)} ff="monospace" />
        {parsed?.errors.length ? (
          <Alert color="red" title="Fix these rows first">
            <List size="sm">
              {parsed.errors.slice(0, 10).map((e) => (
                <List.Item key={e}>{e}</List.Item>
              ))}
            </List>
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={!parsed || parsed.errors.length > 0 || parsed.entries.length === 0} loading={pending} onClick={() => parsed && onImport(parsed.entries)}>
            Import {parsed?.entries.length ? `${parsed.entries.length} months` : ''}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
