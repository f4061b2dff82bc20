import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useMe } from '../api/users/get-me';
import { FullAreaLoader } from '../ui/full-area-loader';
import { usePageTitle } from '../ui/use-page-title';
import { ChangeOwnPasswordForm } from './change-own-password-form';

/** `/settings/account` (the default settings page): who is signed in, and a password change. */
export function AccountPage() {
  usePageTitle('Account');
  const { data: user } = useMe();
  if (!user) return <FullAreaLoader description="Loading user data" />;
  return (
    <Stack gap="lg" p="lg" maw={720}>
      <Title order={2}>Account</Title>
      <Card withBorder radius="md" padding="lg">
        <Stack gap="xs">
          <Text size="sm" c="dimmed">
            Email
          </Text>
          <Group gap="sm">
            <Text fw={600} data-testid="account-email">
              {user.email}
            </Text>
            {user.role !== 'user' ? <Badge variant="light">{user.role}</Badge> : null}
          </Group>
        </Stack>
      </Card>
      <Card withBorder radius="md" padding="lg">
        <Stack gap="md">
          <Title order={4}>Change password</Title>
          <ChangeOwnPasswordForm userId={user.id} />
        </Stack>
      </Card>
    </Stack>
  );
}
