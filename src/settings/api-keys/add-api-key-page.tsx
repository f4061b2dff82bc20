import { Anchor, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router-dom';
import { useCreateApiKey } from '../../api/api-keys/create-api-key';
import { rememberApiKeyPassword } from '../../state';
import { toastSuccess } from '../../ui/toast';
import { usePageTitle } from '../../ui/use-page-title';
import { ApiKeyForm } from './api-key-form';
import { toCreateApiKeyBody } from './api-key-form-schema';

/** `/settings/api-keys/add-new`: checked with the exchange, then stored; back to the list. */
export function AddApiKeyPage() {
  usePageTitle('Add API key');
  const create = useCreateApiKey();
  const navigate = useNavigate();
  return (
    <Stack gap="lg" p="lg">
      <Anchor component={Link} to=".." relative="path" size="sm" aria-label="Back to API keys">
        <IconArrowLeft size={14} /> API keys
      </Anchor>
      <Title order={2}>Add API key</Title>
      <ApiKeyForm
        submitLabel="Add API key"
        allowRemember
        pending={create.isPending}
        onCancel={() => navigate('..', { relative: 'path' })}
        onSubmit={(values, onError) =>
          create.mutate(toCreateApiKeyBody(values), {
            onSuccess: (key) => {
              if (values.remember) rememberApiKeyPassword(key.id, values.keyPassword);
              toastSuccess(`API key “${key.name}” added`);
              navigate('..', { relative: 'path' });
            },
            onError,
          })
        }
      />
    </Stack>
  );
}
