import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useUser } from '../../api/users/get-user';

/** Back link, page title and whose page it is (the user's email, once loaded). */
export function FundedUserHeading({
  userId,
  title,
  back,
  actions,
}: {
  userId: string;
  title: string;
  back: { to: string; label: string };
  actions?: ReactNode;
}) {
  const user = useUser(userId);
  return (
    <Stack gap="xs">
      <Anchor component={Link} to={back.to} size="sm" aria-label={`Back to ${back.label}`}>
        <IconArrowLeft size={14} /> {back.label}
      </Anchor>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={2}>{title}</Title>
          <Text c="dimmed" size="sm" data-testid="funded-user-email">
            {user.data ? user.data.email : user.isError ? 'Unknown user' : ' '}
          </Text>
        </Stack>
        {actions}
      </Group>
    </Stack>
  );
}

export const FUNDED_BASE = '/admin-panel/users-funded';
export const keysPath = (userId: string) => `${FUNDED_BASE}/api-keys-settings/${userId}`;
export const keyPath = (userId: string, apiKeyId: string) => `${keysPath(userId)}/${apiKeyId}`;
export const transactionsPath = (userId: string, apiKeyId: string) => `${keyPath(userId, apiKeyId)}/transactions`;
export const tradeSettingsPath = (userId: string) => `${FUNDED_BASE}/trade-settings/${userId}`;
