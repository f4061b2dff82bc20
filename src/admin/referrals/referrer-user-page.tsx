import { ActionIcon, Button, Group, Stack, TextInput, Title, Tooltip } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { ReferralMonthlyRecord } from '../../api/contracts/referrals';
import { useReferralVolume } from '../../api/referrals/get-referral-volume';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from '../../ui/data-table';
import { formatIncome, formatMonth, formatVolume } from '../../ui/referral-format';
import { sortRecords } from '../../ui/sort-records';
import { usePageTitle } from '../../ui/use-page-title';
import { ReferralFilterBar } from './referral-filter-bar';
import {
  effectiveCurrency,
  readReferralFilters,
  REFERRALS_OVERVIEW_PATH,
  REFERRER_USER_PATH,
  referralFiltersSearch,
  UUID_RE,
  type ReferralFilters,
} from './referral-filters';
import { ReferrerIncomeDialog } from './referrer-income-dialog';

export const REFERRER_PAGE_TITLE = 'Referrer Volume & Income Overview';

/** The user-id filter: another referrer's id (Enter) opens their page with the same filters. */
function UserIdFilter({ filters }: { filters: ReferralFilters }) {
  const navigate = useNavigate();
  const [value, setValue] = useState(filters.userId);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setValue(filters.userId), [filters.userId]);
  const go = () => {
    const id = value.trim();
    if (id === filters.userId) return setError(null);
    if (!UUID_RE.test(id)) return setError('Enter a user id');
    setError(null);
    navigate(`${REFERRER_USER_PATH}/${id}?${referralFiltersSearch({ ...filters, userId: id }).toString()}`);
  };
  return (
    <TextInput
      label="User ID"
      w={330}
      value={value}
      error={error}
      onChange={(e) => setValue(e.currentTarget.value)}
      onBlur={go}
      onKeyDown={(e) => {
        if (e.key === 'Enter') go();
      }}
    />
  );
}

/**
 * `/admin-panel/referrals/user/{userId}` — exactly SPEC §2 "Referrer user page": back to the
 * overview, the title followed by the user id, filters in the query string (exchange BITMEX |
 * BINANCE, userId, network, currency for BITMEX), the six columns plus 'Submit income', and the
 * 'Referrer monthly income' dialog.
 */
export function ReferrerUserPage() {
  usePageTitle(REFERRER_PAGE_TITLE);
  const { userId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => readReferralFilters(params, userId), [params, userId]);
  const currency = effectiveCurrency(filters);

  // The query string always holds every filter (defaults included), so the URL is shareable as is.
  const canonical = referralFiltersSearch(filters).toString();
  useEffect(() => {
    if (params.toString() !== canonical) setParams(new URLSearchParams(canonical), { replace: true });
  }, [params, canonical, setParams]);

  const volume = useReferralVolume({ type: 'user', userId, exchange: filters.exchange, network: filters.network, currency });
  const [sortStatus, setSortStatus] = useState<DataTableSortStatus<ReferralMonthlyRecord>>({ columnAccessor: 'date', direction: 'desc' });
  const [incomeFor, setIncomeFor] = useState<ReferralMonthlyRecord | null>(null);
  const records = useMemo(() => sortRecords(volume.data ?? [], sortStatus), [volume.data, sortStatus]);

  const columns: DataTableColumn<ReferralMonthlyRecord>[] = [
    { accessor: 'date', title: 'Date', sortable: true, render: (r) => formatMonth(r.date) },
    { accessor: 'exchange', title: 'Exchange', render: (r) => r.exchange.name },
    { accessor: 'totalExchangeVolume', title: 'Exchange Volume', sortable: true, textAlign: 'right', render: (r) => formatVolume(r.totalExchangeVolume, currency) },
    { accessor: 'totalExchangeIncome', title: 'Exchange Income', sortable: true, textAlign: 'right', render: (r) => formatIncome(r.totalExchangeIncome) },
    { accessor: 'totalReferrerVolume', title: 'Referrer Volume', sortable: true, textAlign: 'right', render: (r) => formatVolume(r.totalReferrerVolume, currency) },
    { accessor: 'totalReferrerIncome', title: 'Referrer Income', sortable: true, textAlign: 'right', render: (r) => formatIncome(r.totalReferrerIncome) },
    {
      accessor: 'actions',
      title: '',
      textAlign: 'right',
      render: (r) => (
        <Button size="compact-sm" variant="light" onClick={() => setIncomeFor(r)}>
          Submit income
        </Button>
      ),
    },
  ];

  return (
    <Stack gap="lg" p="lg">
      <Group gap="sm" wrap="nowrap">
        <Tooltip label="Back to the referrals overview">
          <ActionIcon component={Link} to={REFERRALS_OVERVIEW_PATH} variant="default" size="lg" aria-label="Back">
            <IconArrowLeft size={18} />
          </ActionIcon>
        </Tooltip>
        <Title order={2} style={{ overflowWrap: 'anywhere' }}>
          {REFERRER_PAGE_TITLE} {userId}
        </Title>
      </Group>
      <ReferralFilterBar
        exchange={filters.exchange}
        network={filters.network}
        currency={filters.currency}
        onChange={(patch) => setParams(referralFiltersSearch({ ...filters, ...patch }))}
      >
        <UserIdFilter filters={filters} />
      </ReferralFilterBar>
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
      <ReferrerIncomeDialog
        record={incomeFor}
        onClose={() => setIncomeFor(null)}
        userId={userId}
        exchange={filters.exchange}
        network={filters.network}
        currency={currency}
      />
    </Stack>
  );
}
