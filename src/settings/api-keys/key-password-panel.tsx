import { Button, Card, Checkbox, Group, Modal, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { useVerifyApiKey } from '../../api/api-keys/verify-api-key';
import { WRONG_KEY_PASSWORD, type ApiKey } from '../../api/contracts/api-keys';
import { apiErrorBody } from '../../api/errors';
import { rememberApiKeyPassword, userSettings } from '../../state';
import { toastSuccess } from '../../ui/toast';

/**
 * The key password on this device (SPEC §3 persisted key passwords) and "Check with exchange":
 * the server opens the key with the password and asks the exchange again (DESIGN §3).
 */
export function KeyPasswordPanel({ apiKey }: { apiKey: ApiKey }) {
  const { apiKeyPasswords } = useSnapshot(userSettings);
  const remembered = apiKeyPasswords[apiKey.id];
  const verify = useVerifyApiKey();
  const [asking, setAsking] = useState(false);
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const check = (keyPassword: string, fromPrompt: boolean) =>
    verify.mutate(
      { id: apiKey.id, keyPassword },
      {
        onSuccess: (key) => {
          if (fromPrompt && remember) rememberApiKeyPassword(key.id, keyPassword);
          setAsking(false);
          setPassword('');
          toastSuccess(`The exchange accepted “${key.name}”`);
        },
        onError: (err) => {
          const wrong = apiErrorBody(err)?.message === WRONG_KEY_PASSWORD;
          // A remembered password that no longer opens the key is of no use: forget it and ask.
          if (wrong && !fromPrompt) {
            rememberApiKeyPassword(apiKey.id, null);
            setAsking(true);
          }
          if (wrong && fromPrompt) setError(WRONG_KEY_PASSWORD);
        },
      },
    );

  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="sm">
        <Title order={4}>Key password</Title>
        <Text size="sm" c="dimmed">
          {remembered
            ? 'Remembered on this device: trading with this key will not ask for it.'
            : 'Not remembered on this device: the terminal asks for it when it trades with this key.'}
        </Text>
        <Group>
          <Button
            variant="light"
            leftSection={<IconShieldCheck size={16} />}
            loading={verify.isPending && !asking}
            onClick={() => (remembered ? check(remembered, false) : setAsking(true))}
          >
            Check with exchange
          </Button>
          {remembered ? (
            <Button variant="default" onClick={() => rememberApiKeyPassword(apiKey.id, null)}>
              Forget password on this device
            </Button>
          ) : null}
        </Group>
      </Stack>
      <Modal
        opened={asking}
        onClose={() => {
          setAsking(false);
          setError(null);
        }}
        title="Key password"
        centered
      >
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setError(null);
            if (password) check(password, true);
            else setError('Enter the key password');
          }}
          aria-label="Enter key password"
        >
          <Stack gap="sm">
            <Text size="sm">Enter the key password of “{apiKey.name}”.</Text>
            <PasswordInput label="Key password" autoComplete="current-password" data-autofocus value={password} onChange={(e) => setPassword(e.currentTarget.value)} error={error} />
            <Checkbox label="Remember password on this device" checked={remember} onChange={(e) => setRemember(e.currentTarget.checked)} />
            <Group justify="flex-end">
              <Button type="submit" loading={verify.isPending}>
                Check with exchange
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Card>
  );
}
