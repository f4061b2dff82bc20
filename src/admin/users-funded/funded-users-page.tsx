import { ActionIcon, Anchor, Badge, Button, Group, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAdjustments, IconKey, IconPlus, IconSearch, IconUserMinus, IconUsersGroup } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import type { FundedUser } from '../../api/contracts/funded-users';
import { useFundedUsers } from '../../api/funded-users/list-funded-users';
import { useRemoveFundedUser } from '../../api/funded-users/remove-funded-user';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { DataTable, type DataTableSortStatus } from '../../ui/data-table';
import { LoadMore } from '../../ui/load-more';
import { sortRecords } from '../../ui/sort-records';
import { toastSuccess } from '../../ui/toast';
import { usePageTitle } from '../../ui/use-page-title';
import { keysPath, tradeSettingsPath } from './funded-user-heading';

const formatDate = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { year: 'numeric', month: '2-digit', day: '2-digit' });

/** `/admin-panel/users-funded`: users trading with firm-provided keys; their limits and keys. */
export function FundedUsersPage() {
  usePageTitle('Funded users');
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), 300);
  const list = useFundedUsers(query ? { query } : {});
  const remove = useRemoveFundedUser();
  const [removing, setRemoving] = useState<FundedUser | null>(null);
  const [sortStatus, setSortStatus] = useState<DataTableSortStatus<FundedUser>>({ columnAccessor: 'createdAt', direction: 'desc' });
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.data) ?? [], [list.data]);
  const records = useMemo(() => sortRecords(rows, sortStatus), [rows, sortStatus]);

  return (
    <Stack gap="lg" p="lg">
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={2}>Funded users</Title>
          <Text c="dimmed" size="sm">
            Accounts trading with firm-provided API keys, under the trade limits set here.
          </Text>
        </Stack>
        <Button component={Link} to="add-new" leftSection={<IconPlus size={16} />}>
          Add funded user
        </Button>
      </Group>
      <TextInput
        placeholder="Search by email"
        aria-label="Search funded users by email"
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={360}
      />
      <DataTable<FundedUser>
        withTableBorder
        borderRadius="md"
        highlightOnHover
        minHeight={rows.length ? undefined : 180}
        fetching={list.isLoading}
        records={records}
        idAccessor="userId"
        sortStatus={sortStatus}
        onSortStatusChange={setSortStatus}
        noRecordsText={query ? 'No funded user matches this search' : 'No funded users yet'}
        noRecordsIcon={<IconUsersGroup size={28} aria-hidden />}
        columns={[
          {
            accessor: 'email',
            title: 'Email',
            sortable: true,
            render: (f) => (
              <Anchor component={Link} to={keysPath(f.userId)} fw={600}>
                {f.email}
              </Anchor>
            ),
          },
          { accessor: 'role', title: 'Role', sortable: true, render: (f) => (f.role === 'user' ? 'user' : <Badge variant="light">{f.role}</Badge>) },
          { accessor: 'apiKeyCount', title: 'API keys', sortable: true, textAlign: 'right' },
          {
            accessor: 'note',
            title: 'Note',
            render: (f) => (
              <Text size="sm" c="dimmed" lineClamp={1}>
                {f.note ?? ''}
              </Text>
            ),
          },
          { accessor: 'createdAt', title: 'Added', sortable: true, render: (f) => formatDate(f.createdAt) },
          {
            accessor: 'actions',
            title: '',
            textAlign: 'right',
            render: (f) => (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <Tooltip label="Trade settings">
                  <ActionIcon component={Link} to={tradeSettingsPath(f.userId)} variant="subtle" aria-label={`Trade settings of ${f.email}`}>
                    <IconAdjustments size={18} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label="API keys">
                  <ActionIcon component={Link} to={keysPath(f.userId)} variant="subtle" aria-label={`API keys of ${f.email}`}>
                    <IconKey size={18} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label="Remove from funded users">
                  <ActionIcon variant="subtle" color="red" onClick={() => setRemoving(f)} aria-label={`Remove ${f.email} from funded users`}>
                    <IconUserMinus size={18} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            ),
          },
        ]}
      />
      <LoadMore shown={rows.length} hasMore={list.hasNextPage} loading={list.isFetchingNextPage} onLoadMore={() => void list.fetchNextPage()} />
      <ConfirmDialog
        opened={removing !== null}
        title="Remove funded user"
        confirmLabel="Remove"
        loading={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (!removing) return;
          const f = removing;
          remove.mutate(f.userId, {
            onSuccess: () => {
              toastSuccess(`${f.email} removed from funded users`);
              setRemoving(null);
            },
          });
        }}
      >
        {`Remove ${removing?.email ?? ''} from the funded users? Their API keys, trade settings and transactions are kept.`}
      </ConfirmDialog>
    </Stack>
  );
}
