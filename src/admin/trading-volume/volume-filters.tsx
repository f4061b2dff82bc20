import { Group, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { EXCHANGE_DISPLAY_NAMES, EXCHANGE_IDS, NETWORKS, type ExchangeId, type Network } from '../../api/contracts/common';
import { useUsersList } from '../../api/users/list-users';
import { MonthPickerInput } from '../../ui/dates';

export interface VolumeFilterValues {
  from?: string;
  to?: string;
  exchange?: ExchangeId;
  network?: Network;
  userId?: string;
}

/** A user picked by e-mail search (the users list, 20 at a time). */
function UserFilter({ value, onChange }: { value?: string; onChange: (userId: string | undefined) => void }) {
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), 300);
  const users = useUsersList({ ...(query ? { query } : {}), limit: 20 });
  const [picked, setPicked] = useState<{ value: string; label: string } | null>(null);
  const data = useMemo(() => {
    const options = (users.data?.pages[0]?.data ?? []).map((u) => ({ value: u.id, label: u.email }));
    if (picked && !options.some((o) => o.value === picked.value)) options.unshift(picked);
    return options;
  }, [users.data, picked]);
  return (
    <Select
      label="User"
      placeholder="All users"
      w={280}
      searchable
      clearable
      nothingFoundMessage={users.isFetching ? 'Searching…' : 'No user'}
      data={data}
      value={value ?? null}
      searchValue={search}
      onSearchChange={setSearch}
      onChange={(id, option) => {
        setPicked(id && option ? { value: id, label: option.label } : null);
        onChange(id ?? undefined);
      }}
    />
  );
}

/** Trading-volume filters (FF_TRADING_VOLUME_FILTERS): months, exchange, network, user. */
export function VolumeFilters({ value, onChange }: { value: VolumeFilterValues; onChange: (next: VolumeFilterValues) => void }) {
  const range: [string | null, string | null] = [value.from ? `${value.from}-01` : null, value.to ? `${value.to}-01` : null];
  return (
    <Group align="flex-end" gap="md" wrap="wrap">
      <MonthPickerInput
        type="range"
        label="Months"
        placeholder="All months"
        valueFormat="MM/YYYY"
        clearable
        w={240}
        value={range}
        onChange={([from, to]) => onChange({ ...value, from: from?.slice(0, 7), to: (to ?? from)?.slice(0, 7) })}
      />
      <Select
        label="Exchange"
        w={160}
        allowDeselect={false}
        data={[{ value: '', label: 'All exchanges' }, ...EXCHANGE_IDS.map((id) => ({ value: id, label: EXCHANGE_DISPLAY_NAMES[id] }))]}
        value={value.exchange ?? ''}
        onChange={(v) => onChange({ ...value, exchange: v ? (v as ExchangeId) : undefined })}
      />
      <Select
        label="Network"
        w={150}
        allowDeselect={false}
        data={[{ value: '', label: 'All networks' }, ...NETWORKS.map((n) => ({ value: n, label: n }))]}
        value={value.network ?? ''}
        onChange={(v) => onChange({ ...value, network: v ? (v as Network) : undefined })}
      />
      <UserFilter value={value.userId} onChange={(userId) => onChange({ ...value, userId })} />
    </Group>
  );
}
