import { Anchor, Button, Card, Group, Stack, Title } from '@mantine/core';
import { IconArrowLeft, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useDeleteApiKey } from '../../api/api-keys/delete-api-key';
import { useApiKey } from '../../api/api-keys/get-api-key';
import { useOwnTransactions } from '../../api/api-keys/list-own-transactions';
import { useRenameApiKey } from '../../api/api-keys/update-api-key';
import { httpStatus } from '../../api/errors';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { FullAreaLoader } from '../../ui/full-area-loader';
import { MessageScreen } from '../../ui/message-screen';
import { toastSuccess } from '../../ui/toast';
import { usePageTitle } from '../../ui/use-page-title';
import { ApiKeyDetails } from './api-key-details';
import { ApiKeyNameForm } from './api-key-name-form';
import { forgetDeletedKey } from './forget-key';
import { KeyPasswordPanel } from './key-password-panel';
import { TransactionForm } from './transaction-form';
import { TransactionsTable } from './transactions-table';

/** `/settings/api-keys/{apiId}`: one key — details, permissions, rename, key password, delete, transactions. */
export function ApiKeyPage() {
  const { apiId = '' } = useParams();
  const key = useApiKey(apiId);
  usePageTitle(key.data ? key.data.name : 'API key');

  const back = (
    <Anchor component={Link} to="/settings/api-keys" size="sm" aria-label="Back to API keys">
      <IconArrowLeft size={14} /> API keys
    </Anchor>
  );
  if (key.isLoading) return <FullAreaLoader description="Loading API key" />;
  if (!key.data) {
    return (
      <Stack gap="lg" p="lg">
        {back}
        <Title order={2}>API key</Title>
        <MessageScreen>{httpStatus(key.error) === 404 || httpStatus(key.error) === 400 ? 'API key not found.' : 'Unable to load this API key.'}</MessageScreen>
      </Stack>
    );
  }
  return (
    <Stack gap="lg" p="lg" maw={1100}>
      {back}
      <Title order={2}>{key.data.name}</Title>
      <ApiKeyDetails apiKey={key.data} />
      <KeyDetailsEditor id={key.data.id} name={key.data.name} />
      <KeyPasswordPanel apiKey={key.data} />
      <OwnTransactions apiKeyId={key.data.id} />
    </Stack>
  );
}

function KeyDetailsEditor({ id, name }: { id: string; name: string }) {
  const rename = useRenameApiKey();
  const remove = useDeleteApiKey();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" align="flex-end">
        <ApiKeyNameForm
          name={name}
          pending={rename.isPending}
          onSubmit={(newName, onError) => rename.mutate({ id, name: newName }, { onSuccess: () => toastSuccess('Name saved'), onError })}
        />
        <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={() => setConfirming(true)}>
          Delete key
        </Button>
      </Group>
      <ConfirmDialog
        opened={confirming}
        title="Delete API key"
        confirmLabel="Delete"
        loading={remove.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(id, {
            onSuccess: () => {
              forgetDeletedKey(id);
              toastSuccess(`API key “${name}” deleted`);
              navigate('/settings/api-keys');
            },
          })
        }
      >
        {`Delete “${name}”? The terminal can no longer trade with it, and the transactions recorded on it are deleted too. The key itself stays valid on the exchange: revoke it there as well.`}
      </ConfirmDialog>
    </Card>
  );
}

function OwnTransactions({ apiKeyId }: { apiKeyId: string }) {
  const list = useOwnTransactions(apiKeyId);
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <Stack gap="sm">
      <Title order={3}>Transactions</Title>
      <Card withBorder radius="md" padding="lg">
        <TransactionForm apiKeyId={apiKeyId} />
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
