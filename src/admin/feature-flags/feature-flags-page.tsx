import { ActionIcon, Badge, Button, Group, Stack, Switch, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconSearch, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { FEATURE_FLAG_KEYS, type FeatureFlag } from '../../api/contracts/feature-flags';
import { useDeleteFeatureFlag } from '../../api/feature-flags/delete-feature-flag';
import { useFeatureFlags } from '../../api/feature-flags/list-feature-flags';
import { useUpdateFeatureFlag } from '../../api/feature-flags/update-feature-flag';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from '../../ui/data-table';
import { sortRecords } from '../../ui/sort-records';
import { toastSuccess } from '../../ui/toast';
import { usePageTitle } from '../../ui/use-page-title';

const BUILT_IN = new Set<string>(FEATURE_FLAG_KEYS);

/**
 * `/admin-panel/feature-flags`: every flag with a switch; admin-made flags can be deleted
 * (confirmed). Each successful change refreshes the list and the app's flag map, so the product
 * follows at once. Fallbacks of SPEC §8: 'Unable to fetch feature flags', 'Error updating feature
 * flag', 'Error deleting feature flag'.
 */
export function FeatureFlagsPage() {
  usePageTitle('Feature flags');
  const flags = useFeatureFlags();
  const update = useUpdateFeatureFlag();
  const remove = useDeleteFeatureFlag();
  const [filter, setFilter] = useState('');
  const [toDelete, setToDelete] = useState<FeatureFlag | null>(null);
  const [sortStatus, setSortStatus] = useState<DataTableSortStatus<FeatureFlag>>({ columnAccessor: 'name', direction: 'asc' });
  const records = useMemo(() => {
    const needle = filter.trim().toUpperCase();
    return sortRecords((flags.data ?? []).filter((f) => f.name.includes(needle)), sortStatus);
  }, [flags.data, filter, sortStatus]);
  const pendingId = update.isPending ? update.variables?.id : undefined;

  const columns: DataTableColumn<FeatureFlag>[] = [
    {
      accessor: 'name',
      title: 'Name',
      sortable: true,
      render: (f) => (
        <Group gap="xs">
          <Text ff="monospace">{f.name}</Text>
          {BUILT_IN.has(f.name) ? null : (
            <Badge size="xs" variant="outline">
              custom
            </Badge>
          )}
        </Group>
      ),
    },
    {
      accessor: 'enabled',
      title: 'Enabled',
      sortable: true,
      render: (f) => (
        <Switch
          aria-label={f.name}
          checked={pendingId === f.id ? !f.enabled : f.enabled}
          disabled={pendingId === f.id}
          onChange={(e) => {
            const enabled = e.currentTarget.checked;
            update.mutate({ ...f, enabled }, { onSuccess: (saved) => toastSuccess(`${saved.name} ${saved.enabled ? 'enabled' : 'disabled'}`) });
          }}
        />
      ),
    },
    {
      accessor: 'actions',
      title: '',
      textAlign: 'right',
      render: (f) =>
        BUILT_IN.has(f.name) ? null : (
          <Tooltip label={`Delete ${f.name}`}>
            <ActionIcon variant="subtle" color="red" aria-label={`Delete ${f.name}`} onClick={() => setToDelete(f)}>
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        ),
    },
  ];

  return (
    <Stack gap="lg" p="lg" maw={900}>
      <Group justify="space-between">
        <Title order={2}>Feature flags</Title>
        <Button component={Link} to="/admin-panel/feature-flags/add-new">
          Add feature flag
        </Button>
      </Group>
      <TextInput placeholder="Filter by name" leftSection={<IconSearch size={16} />} w={320} value={filter} onChange={(e) => setFilter(e.currentTarget.value)} aria-label="Filter flags" />
      <DataTable<FeatureFlag>
        withTableBorder
        borderRadius="md"
        minHeight={180}
        records={records}
        columns={columns}
        fetching={flags.isFetching && !flags.data}
        noRecordsText="There are no feature flags."
        sortStatus={sortStatus}
        onSortStatusChange={setSortStatus}
      />
      <ConfirmDialog
        opened={toDelete !== null}
        title="Delete feature flag"
        confirmLabel="Delete"
        loading={remove.isPending}
        onCancel={() => setToDelete(null)}
        onConfirm={() =>
          toDelete &&
          remove.mutate(toDelete.id, {
            onSuccess: () => {
              toastSuccess(`${toDelete.name} deleted`);
              setToDelete(null);
            },
            onError: () => setToDelete(null),
          })
        }
      >
        {toDelete ? `Delete ${toDelete.name}? Code that reads it will see it as off.` : ''}
      </ConfirmDialog>
    </Stack>
  );
}
