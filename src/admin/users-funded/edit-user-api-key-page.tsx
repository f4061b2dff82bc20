import { Button, Card, Group, Stack } from '@mantine/core';
import { IconReceipt, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { httpStatus } from '../../api/errors';
import { useDeleteUserApiKey } from '../../api/funded-users/delete-user-api-key';
import { useUserApiKey } from '../../api/funded-users/get-user-api-key';
import { useRenameUserApiKey } from '../../api/funded-users/update-user-api-key';
import { ApiKeyDetails } from '../../settings/api-keys/api-key-details';
import { ApiKeyNameForm } from '../../settings/api-keys/api-key-name-form';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { FullAreaLoader } from '../../ui/full-area-loader';
import { MessageScreen } from '../../ui/message-screen';
import { toastSuccess } from '../../ui/toast';
import { usePageTitle } from '../../ui/use-page-title';
import { FundedUserHeading, keysPath, transactionsPath } from './funded-user-heading';

/** `/admin-panel/users-funded/api-keys-settings/{userId}/{apiKeyId}`: rename or delete a user's key. */
export function EditUserApiKeyPage() {
  const { userId = '', apiKeyId = '' } = useParams();
  const key = useUserApiKey(userId, apiKeyId);
  usePageTitle(key.data ? `Edit ${key.data.name}` : 'Edit API key');
  const rename = useRenameUserApiKey();
  const remove = useDeleteUserApiKey();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const back = keysPath(userId);

  return (
    <Stack gap="lg" p="lg" maw={1100}>
      <FundedUserHeading
        userId={userId}
        title={key.data ? key.data.name : 'Edit API key'}
        back={{ to: back, label: 'API keys settings' }}
        actions={
          key.data ? (
            <Button component={Link} to={transactionsPath(userId, apiKeyId)} variant="light" leftSection={<IconReceipt size={16} />}>
              Transactions
            </Button>
          ) : null
        }
      />
      {key.isLoading ? (
        <FullAreaLoader description="Loading API key" />
      ) : !key.data ? (
        <MessageScreen>{httpStatus(key.error) === 404 || httpStatus(key.error) === 400 ? 'API key not found.' : 'Unable to load this API key.'}</MessageScreen>
      ) : (
        <>
          <ApiKeyDetails apiKey={key.data} />
          <Card withBorder radius="md" padding="lg">
            <Group justify="space-between" align="flex-end">
              <ApiKeyNameForm
                name={key.data.name}
                pending={rename.isPending}
                onSubmit={(name, onError) => rename.mutate({ userId, apiKeyId, name }, { onSuccess: () => toastSuccess('Name saved'), onError })}
              />
              <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={() => setConfirming(true)}>
                Delete key
              </Button>
            </Group>
          </Card>
          <ConfirmDialog
            opened={confirming}
            title="Delete API key"
            confirmLabel="Delete"
            loading={remove.isPending}
            onCancel={() => setConfirming(false)}
            onConfirm={() =>
              remove.mutate(
                { userId, apiKeyId },
                {
                  onSuccess: () => {
                    toastSuccess(`API key “${key.data?.name ?? ''}” deleted`);
                    navigate(back);
                  },
                },
              )
            }
          >
            {`Delete “${key.data.name}” and every transaction recorded on it? The key stays valid on the exchange: revoke it there as well.`}
          </ConfirmDialog>
        </>
      )}
    </Stack>
  );
}
