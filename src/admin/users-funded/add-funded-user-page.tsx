import { Anchor, Badge, Button, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowLeft, IconSearch, IconUserOff, IconUserPlus } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { User } from '../../api/contracts/users';
import { useAddFundedUser } from '../../api/funded-users/add-funded-user';
import { useUsersList } from '../../api/users/list-users';
import { DataTable } from '../../ui/data-table';
import { LoadMore } from '../../ui/load-more';
import { toastSuccess } from '../../ui/toast';
import { usePageTitle } from '../../ui/use-page-title';
import { FUNDED_BASE } from './funded-user-heading';

/** `/admin-panel/users-funded/add-new`: find a user by email and add them to the funded list. */
export function AddFundedUserPage() {
  usePageTitle('Add funded user');
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [note, setNote] = useState('');
  const [query] = useDebouncedValue(search.trim(), 300);
  const users = useUsersList(query ? { query, limit: 20 } : { limit: 20 });
  const rows = useMemo(() => users.data?.pages.flatMap((p) => p.data) ?? [], [users.data]);
  const add = useAddFundedUser();
  const noteError = note.length > 500 ? 'Note must be at most 500 characters' : null;

  const addUser = (u: User) => {
    if (noteError) return;
    add.mutate(
      { userId: u.id, ...(note.trim() ? { note: note.trim() } : {}) },
      {
        onSuccess: () => {
          toastSuccess(`${u.email} added to funded users`);
          navigate(FUNDED_BASE);
        },
      },
    );
  };

  return (
    <Stack gap="lg" p="lg">
      <Anchor component={Link} to={FUNDED_BASE} size="sm" aria-label="Back to Funded users">
        <IconArrowLeft size={14} /> Funded users
      </Anchor>
      <Title order={2}>Add funded user</Title>
      <Textarea label="Note" description="Optional: the account, agreement or capital this user trades" autosize minRows={1} maxRows={4} value={note} onChange={(e) => setNote(e.currentTarget.value)} error={noteError} maw={560} />
      <TextInput
        label="Find the user"
        placeholder="Search by email"
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={560}
        autoFocus
      />
      <DataTable<User>
        withTableBorder
        borderRadius="md"
        highlightOnHover
        minHeight={rows.length ? undefined : 160}
        fetching={users.isLoading}
        records={rows}
        idAccessor="id"
        noRecordsText={query ? 'No user matches this email' : 'No users'}
        noRecordsIcon={<IconUserOff size={28} aria-hidden />}
        columns={[
          { accessor: 'email', title: 'Email' },
          { accessor: 'role', title: 'Role', render: (u) => (u.role === 'user' ? 'user' : <Badge variant="light">{u.role}</Badge>) },
          {
            accessor: 'createdAt',
            title: 'Registered',
            render: (u) => (
              <Text size="sm" c="dimmed">
                {new Date(u.createdAt).toLocaleDateString('en-GB')}
              </Text>
            ),
          },
          {
            accessor: 'actions',
            title: '',
            textAlign: 'right',
            render: (u) => (
              <Button size="xs" variant="light" leftSection={<IconUserPlus size={14} />} loading={add.isPending && add.variables?.userId === u.id} onClick={() => addUser(u)} aria-label={`Add ${u.email}`}>
                Add
              </Button>
            ),
          },
        ]}
      />
      <LoadMore shown={rows.length} hasMore={users.hasNextPage} loading={users.isFetchingNextPage} onLoadMore={() => void users.fetchNextPage()} />
    </Stack>
  );
}
