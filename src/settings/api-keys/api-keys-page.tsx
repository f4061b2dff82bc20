import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useDeleteApiKey } from '../../api/api-keys/delete-api-key';
import { useApiKeys } from '../../api/api-keys/list-api-keys';
import type { ApiKey } from '../../api/contracts/api-keys';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { toastSuccess } from '../../ui/toast';
import { usePageTitle } from '../../ui/use-page-title';
import { ApiKeysTable } from './api-keys-table';
import { forgetDeletedKey } from './forget-key';

/** `/settings/api-keys`: your exchange API keys (masked), their permissions, edit and delete. */
export function ApiKeysPage() {
  usePageTitle('API keys');
  const keys = useApiKeys();
  const remove = useDeleteApiKey();
  const [deleting, setDeleting] = useState<ApiKey | null>(null);

  const confirmDelete = () => {
    if (!deleting) return;
    const key = deleting;
    remove.mutate(key.id, {
      onSuccess: () => {
        forgetDeletedKey(key.id);
        toastSuccess(`API key “${key.name}” deleted`);
        setDeleting(null);
      },
    });
  };

  return (
    <Stack gap="lg" p="lg">
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={2}>API keys</Title>
          <Text c="dimmed" size="sm">
            Exchange keys the terminal trades with. Secrets are encrypted with your key password and never shown again.
          </Text>
        </Stack>
        <Button component={Link} to="add-new" leftSection={<IconPlus size={16} />}>
          Add API key
        </Button>
      </Group>
      <ApiKeysTable keys={keys.data ?? []} fetching={keys.isLoading} editHref={(k) => k.id} onDelete={setDeleting} />
      <ConfirmDialog
        opened={deleting !== null}
        title="Delete API key"
        confirmLabel="Delete"
        loading={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      >
        {`Delete “${deleting?.name ?? ''}”? The terminal can no longer trade with it, and the transactions recorded on it are deleted too. The key itself stays valid on the exchange: revoke it there as well.`}
      </ConfirmDialog>
    </Stack>
  );
}
