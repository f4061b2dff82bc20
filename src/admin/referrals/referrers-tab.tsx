import { Anchor, Badge, Group, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { NETWORKS, type Network } from '../../api/contracts/common';
import { REFERRAL_EXCHANGES, type ReferralExchange, type ReferrerSummary } from '../../api/contracts/referrals';
import { useReferrers, type ReferrersFilter } from '../../api/referrals/list-referrers';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from '../../ui/data-table';
import { MonthPickerInput } from '../../ui/dates';
import { LoadMore } from '../../ui/load-more';
import { formatIncome, formatUsd } from '../../ui/referral-format';
import { sortRecords } from '../../ui/sort-records';
import { REFERRER_USER_PATH, referralFiltersSearch } from './referral-filters';

const MONTH_RE = /^\d{4}-\d{2}$/;
const month = (v: string | null) => (v && MONTH_RE.test(v) ? v : undefined);

/** Filters of the overview, kept in the query string: months (from–to), exchange, network. */
function readFilter(params: URLSearchParams): ReferrersFilter {
  const exchange = params.get('exchangeName');
  const network = params.get('network');
  return {
    startAt: month(params.get('startAt')),
    endAt: month(params.get('endAt')),
    exchangeName: (REFERRAL_EXCHANGES as readonly string[]).includes(exchange ?? '') ? (exchange as ReferralExchange) : undefined,
    network: network === 'TESTNET' ? 'TESTNET' : 'MAINNET',
  };
}

/** `GET /v1/referrals` (startAt, endAt, exchangeName, cursor): every referrer, linking to their page. */
export function ReferrersTab() {
  const [params, setParams] = useSearchParams();
  const filter = useMemo(() => readFilter(params), [params]);
  const referrers = useReferrers(filter);
  const [sortStatus, setSortStatus] = useState<DataTableSortStatus<ReferrerSummary>>({ columnAccessor: 'email', direction: 'asc' });
  const loaded = useMemo(() => referrers.data?.pages.flatMap((p) => p.data) ?? [], [referrers.data]);
  const records = useMemo(() => sortRecords(loaded, sortStatus), [loaded, sortStatus]);

  const update = (patch: Partial<ReferrersFilter>) => {
    const next = { ...filter, ...patch };
    const search = new URLSearchParams();
    if (next.startAt) search.set('startAt', next.startAt);
    if (next.endAt) search.set('endAt', next.endAt);
    if (next.exchangeName) search.set('exchangeName', next.exchangeName);
    search.set('network', next.network);
    setParams(search, { replace: true });
  };

  const userLink = (r: ReferrerSummary) =>
    `${REFERRER_USER_PATH}/${r.userId}?${referralFiltersSearch({ exchange: filter.exchangeName ?? 'BITMEX', userId: r.userId, network: filter.network, currency: 'USD' }).toString()}`;

  const columns: DataTableColumn<ReferrerSummary>[] = [
    {
      accessor: 'email',
      title: 'Referrer',
      sortable: true,
      render: (r) => (
        <Anchor component={Link} to={userLink(r)}>
          {r.email}
        </Anchor>
      ),
    },
    { accessor: 'role', title: 'Role', sortable: true, render: (r) => <Badge variant="light">{r.role}</Badge> },
    { accessor: 'referralCode', title: 'Referral code', render: (r) => <Text ff="monospace">{r.referralCode}</Text> },
    { accessor: 'referredUsers', title: 'Referred users', sortable: true, textAlign: 'right' },
    { accessor: 'totalReferrerVolume', title: 'Referred volume', sortable: true, textAlign: 'right', render: (r) => formatUsd(r.totalReferrerVolume) },
    { accessor: 'totalReferrerIncome', title: 'Income', sortable: true, textAlign: 'right', render: (r) => formatIncome(r.totalReferrerIncome) },
  ];

  const range: [string | null, string | null] = [filter.startAt ? `${filter.startAt}-01` : null, filter.endAt ? `${filter.endAt}-01` : null];
  return (
    <Stack gap="md">
      <Group align="flex-end" gap="md">
        <MonthPickerInput
          type="range"
          label="Months"
          placeholder="All months"
          valueFormat="MM/YYYY"
          clearable
          w={240}
          value={range}
          onChange={([from, to]) => update({ startAt: from ? from.slice(0, 7) : undefined, endAt: to ? to.slice(0, 7) : from ? from.slice(0, 7) : undefined })}
        />
        <Select
          label="Exchange"
          w={160}
          data={[{ value: '', label: 'All exchanges' }, ...REFERRAL_EXCHANGES.map((e) => ({ value: e, label: e }))]}
          value={filter.exchangeName ?? ''}
          allowDeselect={false}
          onChange={(v) => update({ exchangeName: v ? (v as ReferralExchange) : undefined })}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="referrers-network-label">
            Network
          </Text>
          <SegmentedControl aria-labelledby="referrers-network-label" data={[...NETWORKS]} value={filter.network} onChange={(v) => update({ network: v as Network })} />
        </Stack>
      </Group>
      <Text size="sm" c="dimmed">
        Volume is the referred users&apos; fills in USD; income is what was submitted for each referrer. Open a referrer to submit monthly income.
      </Text>
      <DataTable<ReferrerSummary>
        withTableBorder
        borderRadius="md"
        minHeight={180}
        idAccessor="userId"
        records={records}
        columns={columns}
        fetching={referrers.isFetching && !referrers.isFetchingNextPage}
        noRecordsText="There are no referrers yet."
        sortStatus={sortStatus}
        onSortStatusChange={setSortStatus}
      />
      <LoadMore shown={loaded.length} hasMore={Boolean(referrers.hasNextPage)} loading={referrers.isFetchingNextPage} onLoadMore={() => void referrers.fetchNextPage()} />
    </Stack>
  );
}
