import { Button, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { ApiKey } from '../../api/contracts/api-keys';
import { useDeleteUserApiKey } from '../../api/funded-users/delete-user-api-key';
import { useUserApiKeys } from '../../api/funded-users/list-user-api-keys';
import { ApiKeysTable } from '../../settings/api-keys/api-keys-table';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { toastSuccess } from '../../ui/toast';
import { usePageTitle } from '../../ui/use-page-title';
import { FUNDED_BASE, FundedUserHeading, keyPath, keysPath, transactionsPath } from './funded-user-heading';
import { TradeAuditSection } from './trade-audit-section';

/** `/admin-panel/users-funded/api-keys-settings/{userId}`: a funded user's keys. */
export function UserApiKeysPage() {
  usePageTitle('API keys settings');
  const { userId = '' } = useParams();
  const keys = useUserApiKeys(userId);
  const remove = useDeleteUserApiKey();
  const [deleting, setDeleting] = useState<ApiKey | null>(null);
  return (
    <Stack gap="lg" p="lg">
      <FundedUserHeading
        userId={userId}
        title="API keys settings"
        back={{ to: FUNDED_BASE, label: 'Funded users' }}
        actions={
          <Button component={Link} to={`${keysPath(userId)}/add-api-key`} leftSection={<IconPlus size={16} />}>
            Add API key
          </Button>
        }
      />
      <ApiKeysTable
        keys={keys.data ?? []}
        fetching={keys.isLoading}
        editHref={(k) => keyPath(userId, k.id)}
        transactionsHref={(k) => transactionsPath(userId, k.id)}
        onDelete={setDeleting}
      />
      <TradeAuditSection userId={userId} />
      <ConfirmDialog
        opened={deleting !== null}
        title="Delete API key"
        confirmLabel="Delete"
        loading={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          const k = deleting;
          remove.mutate(
            { userId, apiKeyId: k.id },
            {
              onSuccess: () => {
                toastSuccess(`API key “${k.name}” deleted`);
                setDeleting(null);
              },
            },
          );
        }}
      >
        {`Delete “${deleting?.name ?? ''}” and every transaction recorded on it? The key stays valid on the exchange: revoke it there as well.`}
      </ConfirmDialog>
    </Stack>
  );
}
