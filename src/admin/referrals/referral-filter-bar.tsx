import { Group, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { CURRENCIES, NETWORKS, type Currency, type Network } from '../../api/contracts/common';
import { REFERRAL_EXCHANGES, type ReferralExchange } from '../../api/contracts/referrals';

/** Exchange (BITMEX first, BINANCE last), network, and currency — the latter only for BITMEX (SPEC §2). */
export function ReferralFilterBar({
  exchange,
  network,
  currency,
  onChange,
  children,
}: {
  exchange: ReferralExchange;
  network: Network;
  currency: Currency;
  onChange: (patch: Partial<{ exchange: ReferralExchange; network: Network; currency: Currency }>) => void;
  children?: React.ReactNode;
}) {
  return (
    <Group align="flex-end" gap="md" wrap="wrap">
      <Select
        label="Exchange"
        w={160}
        allowDeselect={false}
        data={[...REFERRAL_EXCHANGES]}
        value={exchange}
        onChange={(v) => v && onChange({ exchange: v as ReferralExchange })}
      />
      {children}
      <Stack gap={4}>
        <Text size="sm" fw={500} component="span" id="referral-network-label">
          Network
        </Text>
        <SegmentedControl aria-labelledby="referral-network-label" data={[...NETWORKS]} value={network} onChange={(v) => onChange({ network: v as Network })} />
      </Stack>
      {exchange === 'BITMEX' ? (
        <Stack gap={4}>
          <Text size="sm" fw={500} component="span" id="referral-currency-label">
            Currency
          </Text>
          <SegmentedControl aria-labelledby="referral-currency-label" data={[...CURRENCIES]} value={currency} onChange={(v) => onChange({ currency: v as Currency })} />
        </Stack>
      ) : null}
    </Group>
  );
}
