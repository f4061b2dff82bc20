import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { EXCHANGE_DISPLAY_NAMES, EXCHANGE_IDS, type ExchangeId } from '../../api/contracts/common';
import type { TradingVolumeRow, TradingVolumeSort } from '../../api/contracts/trading-volume';
import { useFeatureFlag } from '../../api/feature-flags/get-feature-flag-map';
import { useTradingVolume } from '../../api/trading-volume/get-trading-volume';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from '../../ui/data-table';
import { LoadMore } from '../../ui/load-more';
import { formatMonth, formatUsd } from '../../ui/referral-format';
import { usePageTitle } from '../../ui/use-page-title';
import { ImportFillsDialog } from './import-fills-dialog';
import { VolumeFilters, type VolumeFilterValues } from './volume-filters';

const EXCHANGE_COLORS: Record<ExchangeId, string> = { binance: 'yellow.6', bitmex: 'red.6', bybit: 'orange.6', okx: 'blue.6' };
const rowId = (r: TradingVolumeRow) => `${r.userId}|${r.exchange}|${r.network}|${r.month}`;

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Card withBorder radius="md" padding="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz="xl" fw={700} data-testid={`total-${label.toLowerCase()}`}>
        {value}
      </Text>
    </Card>
  );
}

/**
 * `/admin-panel/trading-volume`: volume per user, exchange, network and month from recorded fills
 * (DESIGN §3–§4), with totals and a monthly chart per exchange. Filters appear with
 * FF_TRADING_VOLUME_FILTERS; rows sort on the server and page with "Load more".
 */
export function TradingVolumePage() {
  usePageTitle('Trading volume');
  const filtersOn = useFeatureFlag('FF_TRADING_VOLUME_FILTERS');
  const [filters, setFilters] = useState<VolumeFilterValues>({});
  const [sortStatus, setSortStatus] = useState<DataTableSortStatus<TradingVolumeRow>>({ columnAccessor: 'month', direction: 'desc' });
  const [importing, setImporting] = useState(false);
  const volume = useTradingVolume({
    ...(filtersOn ? filters : {}),
    sort: sortStatus.columnAccessor as TradingVolumeSort,
    order: sortStatus.direction,
  });
  const first = volume.data?.pages[0];
  const rows = useMemo(() => volume.data?.pages.flatMap((p) => p.data) ?? [], [volume.data]);
  const chart = useMemo(() => {
    const series = first?.series ?? [];
    const present = EXCHANGE_IDS.filter((id) => series.some((p) => p.byExchange[id] !== undefined));
    return {
      // The chart's edge: bar heights are numbers (the figures shown are the exact strings).
      data: series.map((p) => ({ month: formatMonth(p.month), ...Object.fromEntries(present.map((id) => [id, Number(p.byExchange[id] ?? '0')])) })),
      series: present.map((id) => ({ name: id, label: EXCHANGE_DISPLAY_NAMES[id], color: EXCHANGE_COLORS[id] })),
    };
  }, [first]);

  const columns: DataTableColumn<TradingVolumeRow>[] = [
    { accessor: 'month', title: 'Month', sortable: true, render: (r) => formatMonth(r.month) },
    { accessor: 'email', title: 'User', sortable: true },
    { accessor: 'exchange', title: 'Exchange', sortable: true, render: (r) => EXCHANGE_DISPLAY_NAMES[r.exchange] },
    { accessor: 'network', title: 'Network' },
    { accessor: 'fills', title: 'Fills', sortable: true, textAlign: 'right' },
    { accessor: 'volumeUsd', title: 'Volume (USD)', sortable: true, textAlign: 'right', render: (r) => formatUsd(r.volumeUsd) },
    { accessor: 'feeUsd', title: 'Fees (USD)', sortable: true, textAlign: 'right', render: (r) => formatUsd(r.feeUsd) },
  ];

  return (
    <Stack gap="lg" p="lg">
      <Group justify="space-between">
        <Title order={2}>Trading volume</Title>
        <Button variant="default" onClick={() => setImporting(true)}>
          Import fills
        </Button>
      </Group>
      {filtersOn ? <VolumeFilters value={filters} onChange={setFilters} /> : null}
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
        <Stat label="Volume" value={formatUsd(first?.totals.volumeUsd ?? '0')} />
        <Stat label="Fees" value={formatUsd(first?.totals.feeUsd ?? '0')} />
        <Stat label="Fills" value={(first?.totals.fills ?? 0).toLocaleString('en-US')} />
        <Stat label="Users" value={(first?.totals.users ?? 0).toLocaleString('en-US')} />
      </SimpleGrid>
      {chart.data.length ? (
        <Card withBorder radius="md" padding="md">
          <Text fw={600} mb="sm">
            Volume per month (USD)
          </Text>
          <BarChart h={260} data={chart.data} dataKey="month" type="stacked" series={chart.series} withLegend valueFormatter={(value) => formatUsd(String(value))} />
        </Card>
      ) : null}
      <DataTable<TradingVolumeRow>
        withTableBorder
        borderRadius="md"
        minHeight={180}
        idAccessor={rowId}
        records={rows}
        columns={columns}
        fetching={volume.isFetching && !volume.isFetchingNextPage}
        noRecordsText="No fills recorded for these filters."
        sortStatus={sortStatus}
        onSortStatusChange={setSortStatus}
      />
      <LoadMore shown={rows.length} hasMore={Boolean(volume.hasNextPage)} loading={volume.isFetchingNextPage} onLoadMore={() => void volume.fetchNextPage()} />
      <ImportFillsDialog opened={importing} onClose={() => setImporting(false)} />
    </Stack>
  );
}
