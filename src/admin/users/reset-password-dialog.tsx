import { Alert, Button, Code, CopyButton, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { ResetPasswordBody } from '../../api/contracts/user-admin';
import type { User } from '../../api/contracts/users';
import { useResetUserPassword } from '../../api/users/reset-user-password';
import { toastSuccess } from '../../ui/toast';

/**
 * Resetting a password is destructive for the temporary-password method (it ends every session of
 * the user), so the admin chooses the method and confirms; a temporary password is shown once.
 */
export function ResetPasswordDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const reset = useResetUserPassword();
  const [method, setMethod] = useState<ResetPasswordBody['method']>('link');
  const [temporary, setTemporary] = useState<string | null>(null);
  useEffect(() => {
    if (user) {
      setMethod('link');
      setTemporary(null);
    }
  }, [user]);

  const confirm = () => {
    if (!user) return;
    reset.mutate(
      { id: user.id, body: { method } },
      {
        onSuccess: (result) => {
          toastSuccess(result.message);
          if (result.temporaryPassword) setTemporary(result.temporaryPassword);
          else onClose();
        },
      },
    );
  };

  return (
    <Modal opened={user !== null} onClose={onClose} title="Reset password" centered>
      {user && temporary ? (
        <Stack gap="md">
          <Text size="sm">
            Temporary password for <b>{user.email}</b>. It is shown only now: hand it over securely and ask the user to change it under Settings → Account.
          </Text>
          <Group gap="sm">
            <Code fz="lg" data-testid="temporary-password">
              {temporary}
            </Code>
            <CopyButton value={temporary}>{({ copied, copy }) => <Button size="compact-sm" variant="light" onClick={copy}>{copied ? 'Copied' : 'Copy'}</Button>}</CopyButton>
          </Group>
          <Group justify="flex-end">
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      ) : user ? (
        <Stack gap="md">
          <Text size="sm">
            Reset the password of <b>{user.email}</b>?
          </Text>
          <Radio.Group value={method} onChange={(v) => setMethod(v as ResetPasswordBody['method'])} label="How">
            <Stack gap="xs" mt="xs">
              <Radio value="link" label="E-mail a reset link (valid 30 minutes; the current password keeps working until it is used)" />
              <Radio value="temporary-password" label="Set a temporary password now (signs the user out everywhere)" />
            </Stack>
          </Radio.Group>
          {method === 'temporary-password' ? (
            <Alert color="orange" variant="light">
              The current password stops working at once and every session of this user ends.
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={reset.isPending}>
              Cancel
            </Button>
            <Button color="red" onClick={confirm} loading={reset.isPending}>
              Reset password
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
