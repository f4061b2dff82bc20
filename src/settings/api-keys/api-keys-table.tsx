import { ActionIcon, Anchor, Badge, Code, Group, Text, Tooltip } from '@mantine/core';
import { IconKeyOff, IconPencil, IconReceipt, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import type { ApiKey } from '../../api/contracts/api-keys';
import { DataTable, type DataTableSortStatus } from '../../ui/data-table';
import { sortRecords } from '../../ui/sort-records';
import { exchangeName, NETWORK_LABELS } from './exchange-options';
import { PermissionBadges } from './permission-badges';

export interface ApiKeysTableProps {
  keys: ApiKey[];
  fetching: boolean;
  /** Where a key's name links to (its edit page). */
  editHref: (key: ApiKey) => string;
  /** Where its transactions are listed, when that page exists. */
  transactionsHref?: (key: ApiKey) => string;
  onDelete: (key: ApiKey) => void;
}

export const formatDateTime = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });

/** API keys with masked key, exchange, network and permissions; sortable, with an empty state. */
export function ApiKeysTable({ keys, fetching, editHref, transactionsHref, onDelete }: ApiKeysTableProps) {
  const [sortStatus, setSortStatus] = useState<DataTableSortStatus<ApiKey>>({ columnAccessor: 'createdAt', direction: 'desc' });
  const records = useMemo(
    () =>
      sortRecords(keys, sortStatus, (k) => {
        if (sortStatus.columnAccessor === 'permissions') return (k.permissions.trade ? 2 : 0) + (k.permissions.withdraw ? 1 : 0);
        return (k as unknown as Record<string, unknown>)[sortStatus.columnAccessor as string];
      }),
    [keys, sortStatus],
  );
  return (
    <DataTable<ApiKey>
      withTableBorder
      borderRadius="md"
      highlightOnHover
      minHeight={keys.length ? undefined : 180}
      fetching={fetching}
      records={records}
      idAccessor="id"
      sortStatus={sortStatus}
      onSortStatusChange={setSortStatus}
      noRecordsText="No API keys yet"
      noRecordsIcon={<IconKeyOff size={28} aria-hidden />}
      columns={[
        {
          accessor: 'name',
          title: 'Name',
          sortable: true,
          render: (k) => (
            <Anchor component={Link} to={editHref(k)} fw={600}>
              {k.name}
            </Anchor>
          ),
        },
        { accessor: 'exchange', title: 'Exchange', sortable: true, render: (k) => exchangeName(k.exchange) },
        {
          accessor: 'network',
          title: 'Network',
          sortable: true,
          render: (k) => (
            <Badge size="sm" variant="outline" color={k.network === 'MAINNET' ? 'blue' : 'gray'}>
              {NETWORK_LABELS[k.network]}
            </Badge>
          ),
        },
        { accessor: 'apiKeyMasked', title: 'Key', render: (k) => <Code>{k.apiKeyMasked}</Code> },
        { accessor: 'permissions', title: 'Permissions', sortable: true, render: (k) => <PermissionBadges permissions={k.permissions} /> },
        {
          accessor: 'createdAt',
          title: 'Added',
          sortable: true,
          render: (k) => (
            <Text size="sm" c="dimmed">
              {formatDateTime(k.createdAt)}
            </Text>
          ),
        },
        {
          accessor: 'actions',
          title: '',
          textAlign: 'right',
          render: (k) => (
            <Group gap={4} justify="flex-end" wrap="nowrap">
              {transactionsHref ? (
                <Tooltip label="Transactions">
                  <ActionIcon component={Link} to={transactionsHref(k)} variant="subtle" aria-label={`Transactions of ${k.name}`}>
                    <IconReceipt size={18} />
                  </ActionIcon>
                </Tooltip>
              ) : null}
              <Tooltip label="Edit">
                <ActionIcon component={Link} to={editHref(k)} variant="subtle" aria-label={`Edit ${k.name}`}>
                  <IconPencil size={18} />
                </ActionIcon>
              </Tooltip>
              <Tooltip label="Delete">
                <ActionIcon variant="subtle" color="red" onClick={() => onDelete(k)} aria-label={`Delete ${k.name}`}>
                  <IconTrash size={18} />
                </ActionIcon>
              </Tooltip>
            </Group>
          ),
        },
      ]}
    />
  );
}
