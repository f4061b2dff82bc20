import { Button, Code, CopyButton, Group, SegmentedControl, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { INVITATION_STATUSES, type Invitation, type InvitationStatus } from '../../api/contracts/invitations';
import { useInvitations } from '../../api/invitations/list-invitations';
import { useRevokeInvitation } from '../../api/invitations/revoke-invitation';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from '../../ui/data-table';
import { LoadMore } from '../../ui/load-more';
import { sortRecords } from '../../ui/sort-records';
import { toastSuccess } from '../../ui/toast';
import { usePageTitle } from '../../ui/use-page-title';
import { InvitationStatusBadge } from './invitation-status-badge';
import { inviteLink } from './invite-link';

const dateTime = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }) : '—');

/**
 * `/admin-panel/invitations`: codes with their status — unused, used (by whom), expired, revoked —
 * newest first with "Load more"; copy a code's sign-up link, revoke (confirmed).
 */
export function InvitationsPage() {
  usePageTitle('Invitations');
  const [status, setStatus] = useState<InvitationStatus | 'all'>('all');
  const invitations = useInvitations(status === 'all' ? {} : { status });
  const revoke = useRevokeInvitation();
  const [toRevoke, setToRevoke] = useState<Invitation | null>(null);
  const [sortStatus, setSortStatus] = useState<DataTableSortStatus<Invitation>>({ columnAccessor: 'createdAt', direction: 'desc' });
  const loaded = useMemo(() => invitations.data?.pages.flatMap((p) => p.data) ?? [], [invitations.data]);
  const records = useMemo(() => sortRecords(loaded, sortStatus), [loaded, sortStatus]);

  const columns: DataTableColumn<Invitation>[] = [
    {
      accessor: 'code',
      title: 'Code',
      sortable: true,
      render: (i) => (
        <Group gap={6} wrap="nowrap">
          <Text ff="monospace" fw={600}>
            {i.code}
          </Text>
          {i.status === 'unused' ? (
            <CopyButton value={inviteLink(i.code)}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? 'Copied' : 'Copy sign-up link'}>
                  <Button size="compact-xs" variant="subtle" onClick={copy} aria-label={`Copy sign-up link of ${i.code}`}>
                    {copied ? 'Copied' : 'Copy link'}
                  </Button>
                </Tooltip>
              )}
            </CopyButton>
          ) : null}
        </Group>
      ),
    },
    { accessor: 'status', title: 'Status', sortable: true, render: (i) => <InvitationStatusBadge status={i.status} /> },
    { accessor: 'uses', title: 'Uses', textAlign: 'right', render: (i) => `${i.uses} / ${i.maxUses}` },
    {
      accessor: 'usedBy',
      title: 'Used by',
      render: (i) => (i.usedBy.length ? i.usedBy.map((u) => u.email).join(', ') : '—'),
    },
    { accessor: 'email', title: 'For e-mail', render: (i) => i.email ?? 'anyone' },
    { accessor: 'role', title: 'Role', render: (i) => i.role ?? 'user' },
    { accessor: 'expiresAt', title: 'Expires', sortable: true, render: (i) => (i.expiresAt ? dateTime(i.expiresAt) : 'never') },
    { accessor: 'createdAt', title: 'Created', sortable: true, render: (i) => dateTime(i.createdAt) },
    {
      accessor: 'actions',
      title: '',
      textAlign: 'right',
      render: (i) =>
        i.status === 'revoked' ? null : (
          <Button size="compact-sm" variant="light" color="red" onClick={() => setToRevoke(i)}>
            Revoke
          </Button>
        ),
    },
  ];

  return (
    <Stack gap="lg" p="lg">
      <Group justify="space-between">
        <Title order={2}>Invitations</Title>
        <Button component={Link} to="/admin-panel/invitations/generate">
          Generate invitations
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        While registration is closed (FF_ENABLE_REGISTRATION off), people sign up only with a code, at <Code>/register?invite=CODE</Code>.
      </Text>
      <SegmentedControl
        w="fit-content"
        data={[{ value: 'all', label: 'All' }, ...INVITATION_STATUSES.map((s) => ({ value: s, label: s[0].toUpperCase() + s.slice(1) }))]}
        value={status}
        onChange={(v) => setStatus(v as InvitationStatus | 'all')}
      />
      <DataTable<Invitation>
        withTableBorder
        borderRadius="md"
        minHeight={180}
        records={records}
        columns={columns}
        fetching={invitations.isFetching && !invitations.isFetchingNextPage}
        noRecordsText="There are no invitations."
        sortStatus={sortStatus}
        onSortStatusChange={setSortStatus}
      />
      <LoadMore shown={loaded.length} hasMore={Boolean(invitations.hasNextPage)} loading={invitations.isFetchingNextPage} onLoadMore={() => void invitations.fetchNextPage()} />
      <ConfirmDialog
        opened={toRevoke !== null}
        title="Revoke invitation"
        confirmLabel="Revoke"
        loading={revoke.isPending}
        onCancel={() => setToRevoke(null)}
        onConfirm={() =>
          toRevoke &&
          revoke.mutate(toRevoke.id, {
            onSuccess: (inv) => {
              toastSuccess(`Invitation ${inv.code} revoked`);
              setToRevoke(null);
            },
            onError: () => setToRevoke(null),
          })
        }
      >
        {toRevoke ? `Revoke ${toRevoke.code}? Nobody can sign up with it afterwards; accounts already created keep working.` : ''}
      </ConfirmDialog>
    </Stack>
  );
}
