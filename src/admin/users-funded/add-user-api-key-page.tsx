import { Stack } from '@mantine/core';
import { useNavigate, useParams } from 'react-router-dom';
import { useCreateUserApiKey } from '../../api/funded-users/create-user-api-key';
import { ApiKeyForm } from '../../settings/api-keys/api-key-form';
import { toCreateApiKeyBody } from '../../settings/api-keys/api-key-form-schema';
import { toastSuccess } from '../../ui/toast';
import { usePageTitle } from '../../ui/use-page-title';
import { FundedUserHeading, keysPath } from './funded-user-heading';

/**
 * `/admin-panel/users-funded/api-keys-settings/{userId}/add-api-key`: a firm-provided key for the
 * user. The admin chooses the key password and hands it to the user (the server keeps none).
 */
export function AddUserApiKeyPage() {
  usePageTitle('Add API key');
  const { userId = '' } = useParams();
  const create = useCreateUserApiKey();
  const navigate = useNavigate();
  const back = keysPath(userId);
  return (
    <Stack gap="lg" p="lg">
      <FundedUserHeading userId={userId} title="Add API key" back={{ to: back, label: 'API keys settings' }} />
      <ApiKeyForm
        submitLabel="Add API key"
        allowRemember={false}
        pending={create.isPending}
        onCancel={() => navigate(back)}
        onSubmit={(values, onError) =>
          create.mutate(
            { userId, body: toCreateApiKeyBody(values) },
            {
              onSuccess: (key) => {
                toastSuccess(`API key “${key.name}” added`);
                navigate(back);
              },
              onError,
            },
          )
        }
      />
    </Stack>
  );
}
