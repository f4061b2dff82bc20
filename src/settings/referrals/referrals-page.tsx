import { Button, Card, Code, CopyButton, Group, SegmentedControl, Select, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { CURRENCIES, NETWORKS, type Currency, type Network } from '../../api/contracts/common';
import { currencyOffered, REFERRAL_DEFAULTS, REFERRAL_EXCHANGES, type OwnReferralMonth, type ReferralExchange } from '../../api/contracts/referrals';
import { useOwnReferrals } from '../../api/referrals/get-own-referrals';
import { useMe } from '../../api/users/get-me';
import { DataTable, type DataTableColumn } from '../../ui/data-table';
import { FullAreaLoader } from '../../ui/full-area-loader';
import { formatIncome, formatMonth, formatVolume } from '../../ui/referral-format';
import { usePageTitle } from '../../ui/use-page-title';

const pick = <T extends string>(allowed: readonly T[], value: string | null, fallback: T): T =>
  value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;

/** The referral link of SPEC §2 / DESIGN §4. */
export const referralLink = (code: string, origin = window.location.origin) => `${origin}/register?ref=${encodeURIComponent(code)}`;

/**
 * `/settings/referrals` (admin, referrer): your referral link and, per month, the volume your
 * referred users traded and the income submitted for you (`GET /v1/referrals/user`).
 */
export function ReferralsSettingsPage() {
  usePageTitle('Referrals');
  const { data: me } = useMe();
  const [params, setParams] = useSearchParams();
  const exchange = pick(REFERRAL_EXCHANGES, params.get('exchange'), REFERRAL_DEFAULTS.exchange);
  const network = pick(NETWORKS, params.get('network'), REFERRAL_DEFAULTS.network);
  const currency = currencyOffered(exchange, pick(CURRENCIES, params.get('currency'), REFERRAL_DEFAULTS.currency));
  const own = useOwnReferrals({ exchange, network, currency });
  const set = (patch: Partial<{ exchange: ReferralExchange; network: Network; currency: Currency }>) => {
    const next = { exchange, network, currency, ...patch };
    setParams(new URLSearchParams([['exchange', next.exchange], ['network', next.network], ['currency', next.currency]]), { replace: true });
  };
  const code = own.data?.referralCode ?? me?.referralCode;
  const link = useMemo(() => (code ? referralLink(code) : ''), [code]);

  const columns: DataTableColumn<OwnReferralMonth>[] = [
    { accessor: 'date', title: 'Date', render: (r) => formatMonth(r.date) },
    { accessor: 'exchange', title: 'Exchange', render: (r) => r.exchange.name },
    { accessor: 'totalReferrerVolume', title: 'Referred volume', textAlign: 'right', render: (r) => formatVolume(r.totalReferrerVolume, currency) },
    { accessor: 'totalReferrerIncome', title: 'Income', textAlign: 'right', render: (r) => formatIncome(r.totalReferrerIncome) },
  ];

  if (!me) return <FullAreaLoader description="Loading user data" />;
  return (
    <Stack gap="lg" p="lg" maw={900}>
      <Title order={2}>Referrals</Title>
      <Card withBorder radius="md" padding="lg">
        <Stack gap="xs">
          <Text size="sm" c="dimmed">
            Your referral link: people who sign up with it count as referred by you.
          </Text>
          <Group gap="sm" wrap="nowrap">
            <Code fz="md" data-testid="referral-link" style={{ overflowWrap: 'anywhere' }}>
              {link}
            </Code>
            <CopyButton value={link}>
              {({ copied, copy }) => (
                <Button size="compact-sm" variant="light" onClick={copy} disabled={!link}>
                  {copied ? 'Copied' : 'Copy link'}
                </Button>
              )}
            </CopyButton>
          </Group>
          {own.data ? (
            <Text size="sm" data-testid="referred-users">
              Referred users: <b>{own.data.referredUsers}</b>
            </Text>
          ) : null}
        </Stack>
      </Card>
      <Group align="flex-end" gap="md">
        <Select label="Exchange" w={160} allowDeselect={false} data={[...REFERRAL_EXCHANGES]} value={exchange} onChange={(v) => v && set({ exchange: v as ReferralExchange })} />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="own-network-label">
            Network
          </Text>
          <SegmentedControl aria-labelledby="own-network-label" data={[...NETWORKS]} value={network} onChange={(v) => set({ network: v as Network })} />
        </Stack>
        {exchange === 'BITMEX' ? (
          <Stack gap={4}>
            <Text size="sm" fw={500} id="own-currency-label">
              Currency
            </Text>
            <SegmentedControl aria-labelledby="own-currency-label" data={[...CURRENCIES]} value={currency} onChange={(v) => set({ currency: v as Currency })} />
          </Stack>
        ) : null}
      </Group>
      <DataTable<OwnReferralMonth>
        withTableBorder
        borderRadius="md"
        minHeight={180}
        idAccessor="date"
        records={own.data?.data ?? []}
        columns={columns}
        fetching={own.isFetching}
        noRecordsText="There are no records to display."
      />
    </Stack>
  );
}
