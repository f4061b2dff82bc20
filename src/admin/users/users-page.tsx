import { Anchor, Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { ROLES, type Role } from '../../api/contracts/common';
import type { User } from '../../api/contracts/users';
import { useMe } from '../../api/users/get-me';
import { useUsersList } from '../../api/users/list-users';
import { useUpdateUser } from '../../api/users/update-user';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from '../../ui/data-table';
import { LoadMore } from '../../ui/load-more';
import { sortRecords } from '../../ui/sort-records';
import { toastSuccess } from '../../ui/toast';
import { usePageTitle } from '../../ui/use-page-title';
import { ResetPasswordDialog } from './reset-password-dialog';

const dateTime = (iso: string) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * `/admin-panel/users`: every account, searched by e-mail, newest first with "Load more"; role
 * changes (confirmed) and password resets. Failures toast the server's message or 'Unable to fetch
 * users' (SPEC §8).
 */
export function UsersPage() {
  usePageTitle('Users');
  const { data: me } = useMe();
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<Role | ''>('');
  const [query] = useDebouncedValue(search.trim(), 300);
  const users = useUsersList({ ...(query ? { query } : {}), ...(role ? { role } : {}) });
  const update = useUpdateUser({ errorMessage: 'Unable to change role' });
  const [sortStatus, setSortStatus] = useState<DataTableSortStatus<User>>({ columnAccessor: 'createdAt', direction: 'desc' });
  const [roleChange, setRoleChange] = useState<{ user: User; role: Role } | null>(null);
  const [resetFor, setResetFor] = useState<User | null>(null);
  const loaded = useMemo(() => users.data?.pages.flatMap((p) => p.data) ?? [], [users.data]);
  const records = useMemo(() => sortRecords(loaded, sortStatus), [loaded, sortStatus]);

  const columns: DataTableColumn<User>[] = [
    { accessor: 'email', title: 'Email', sortable: true },
    {
      accessor: 'role',
      title: 'Role',
      sortable: true,
      render: (u) => (
        <Select
          aria-label={`Role of ${u.email}`}
          size="xs"
          w={120}
          allowDeselect={false}
          data={[...ROLES]}
          value={u.role}
          onChange={(next) => next && next !== u.role && setRoleChange({ user: u, role: next as Role })}
        />
      ),
    },
    { accessor: 'referralCode', title: 'Referral code', render: (u) => <Text ff="monospace">{u.referralCode}</Text> },
    { accessor: 'createdAt', title: 'Joined', sortable: true, render: (u) => dateTime(u.createdAt) },
    {
      accessor: 'actions',
      title: '',
      textAlign: 'right',
      render: (u) => (
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          {u.role !== 'user' ? (
            <Anchor component={Link} size="sm" to={`/admin-panel/referrals/user/${u.id}`}>
              Referrals
            </Anchor>
          ) : null}
          <Button size="compact-sm" variant="light" color="red" onClick={() => setResetFor(u)}>
            Reset password
          </Button>
        </Group>
      ),
    },
  ];

  const confirmRole = () => {
    if (!roleChange) return;
    const { user, role: next } = roleChange;
    update.mutate(
      { id: user.id, body: { role: next } },
      {
        onSuccess: () => {
          toastSuccess(`${user.email} is now ${next}`);
          setRoleChange(null);
        },
        onError: () => setRoleChange(null),
      },
    );
  };

  return (
    <Stack gap="lg" p="lg">
      <Title order={2}>Users</Title>
      <Group align="flex-end">
        <TextInput
          label="Search"
          placeholder="Email contains…"
          leftSection={<IconSearch size={16} />}
          w={320}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
        <Select
          label="Role"
          w={160}
          data={[{ value: '', label: 'All roles' }, ...ROLES.map((r) => ({ value: r, label: r }))]}
          value={role}
          allowDeselect={false}
          onChange={(v) => setRole((v ?? '') as Role | '')}
        />
      </Group>
      <DataTable<User>
        withTableBorder
        borderRadius="md"
        minHeight={180}
        records={records}
        columns={columns}
        fetching={users.isFetching && !users.isFetchingNextPage}
        noRecordsText={query ? 'No user matches this search.' : 'There are no users.'}
        sortStatus={sortStatus}
        onSortStatusChange={setSortStatus}
      />
      <LoadMore shown={loaded.length} hasMore={Boolean(users.hasNextPage)} loading={users.isFetchingNextPage} onLoadMore={() => void users.fetchNextPage()} />
      <ConfirmDialog
        opened={roleChange !== null}
        title="Change role"
        confirmLabel="Change role"
        loading={update.isPending}
        onConfirm={confirmRole}
        onCancel={() => setRoleChange(null)}
      >
        {roleChange
          ? `Make ${roleChange.user.email} ${roleChange.role}?${roleChange.user.id === me?.id && roleChange.role !== 'admin' ? ' You will lose access to the admin panel.' : ''}`
          : ''}
      </ConfirmDialog>
      <ResetPasswordDialog user={resetFor} onClose={() => setResetFor(null)} />
    </Stack>
  );
}
