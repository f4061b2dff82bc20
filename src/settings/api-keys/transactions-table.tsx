import { Badge, Text } from '@mantine/core';
import { IconReceiptOff } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { TRANSACTION_TYPE_LABELS, type Transaction, type TransactionType } from '../../api/contracts/funded-users';
import { DataTable, type DataTableSortStatus } from '../../ui/data-table';
import { LoadMore } from '../../ui/load-more';
import { sortRecords } from '../../ui/sort-records';
import { dec, groupThousands, str } from '../../api/contracts/decimal';
import { formatDateTime } from './api-keys-table';

const TYPE_COLORS: Record<TransactionType, string> = { deposit: 'teal', withdrawal: 'orange', 'profit-share': 'blue', fee: 'gray', adjustment: 'grape' };

/** Exact, as recorded: en-US thousands separators, every decimal the amount has, the sign kept ("-1,234.5"). */
export function formatAmount(amount: string): string {
  return groupThousands(str(dec(amount)));
}

/** A key's transactions, newest first by when they happened, with "Load more" paging and sorting of what is loaded. */
export function TransactionsTable({
  transactions,
  fetching,
  hasMore,
  loadingMore,
  onLoadMore,
}: {
  transactions: Transaction[];
  fetching: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
}) {
  const [sortStatus, setSortStatus] = useState<DataTableSortStatus<Transaction>>({ columnAccessor: 'occurredAt', direction: 'desc' });
  const records = useMemo(() => sortRecords(transactions, sortStatus), [transactions, sortStatus]);
  return (
    <>
      <DataTable<Transaction>
        withTableBorder
        borderRadius="md"
        minHeight={transactions.length ? undefined : 160}
        fetching={fetching}
        records={records}
        idAccessor="id"
        sortStatus={sortStatus}
        onSortStatusChange={setSortStatus}
        noRecordsText="No transactions recorded yet"
        noRecordsIcon={<IconReceiptOff size={28} aria-hidden />}
        aria-label="Transactions"
        columns={[
          { accessor: 'occurredAt', title: 'Date', sortable: true, render: (t) => formatDateTime(t.occurredAt) },
          {
            accessor: 'type',
            title: 'Type',
            sortable: true,
            render: (t) => (
              <Badge size="sm" variant="light" color={TYPE_COLORS[t.type]}>
                {TRANSACTION_TYPE_LABELS[t.type]}
              </Badge>
            ),
          },
          {
            accessor: 'amount',
            title: 'Amount',
            sortable: true,
            textAlign: 'right',
            render: (t) => (
              <Text size="sm" ff="monospace" c={t.amount.startsWith('-') ? 'red' : undefined}>
                {formatAmount(t.amount)}
              </Text>
            ),
          },
          { accessor: 'currency', title: 'Currency', sortable: true },
          {
            accessor: 'note',
            title: 'Note',
            render: (t) => (
              <Text size="sm" c="dimmed" lineClamp={2}>
                {t.note ?? ''}
              </Text>
            ),
          },
        ]}
      />
      <LoadMore shown={transactions.length} hasMore={hasMore} loading={loadingMore} onLoadMore={onLoadMore} />
    </>
  );
}
