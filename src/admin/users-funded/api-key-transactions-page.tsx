import { Card, Stack, Title } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { useUserApiKey } from '../../api/funded-users/get-user-api-key';
import { useTransactions } from '../../api/funded-users/list-transactions';
import { TransactionForm } from '../../settings/api-keys/transaction-form';
import { TransactionsTable } from '../../settings/api-keys/transactions-table';
import { usePageTitle } from '../../ui/use-page-title';
import { FundedUserHeading, keyPath } from './funded-user-heading';

/** `/admin-panel/users-funded/api-keys-settings/{userId}/{apiKeyId}/transactions`: list + "Add transaction". */
export function ApiKeyTransactionsPage() {
  usePageTitle('Transactions');
  const { userId = '', apiKeyId = '' } = useParams();
  const key = useUserApiKey(userId, apiKeyId);
  const list = useTransactions(userId, apiKeyId);
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <Stack gap="lg" p="lg" maw={1100}>
      <FundedUserHeading
        userId={userId}
        title={key.data ? `Transactions · ${key.data.name}` : 'Transactions'}
        back={{ to: keyPath(userId, apiKeyId), label: key.data ? key.data.name : 'API key' }}
      />
      <Card withBorder radius="md" padding="lg">
        <Stack gap="sm">
          <Title order={4}>Add transaction</Title>
          <TransactionForm apiKeyId={apiKeyId} userId={userId} />
        </Stack>
      </Card>
      <TransactionsTable
        transactions={rows}
        fetching={list.isLoading}
        hasMore={list.hasNextPage}
        loadingMore={list.isFetchingNextPage}
        onLoadMore={() => void list.fetchNextPage()}
      />
    </Stack>
  );
}
