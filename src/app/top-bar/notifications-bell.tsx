import { ActionIcon, Button, Group, Indicator, Popover, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useState } from 'react';
import { useMarkNotificationsRead, useNotifications } from '../../api/notifications/notifications';
import { useFeatureFlag } from '../../api/feature-flags/get-feature-flag-map';
import { ActivityLogModal } from '../../panels/trading/activity-log';
import type { Notification } from '../../api/contracts/notifications';
import { useAlertNotifications } from '../../panels/alerts/use-alert-notifications';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });

function Row({ n, onRead }: { n: Notification; onRead: (id: string) => void }) {
  return (
    <UnstyledButton
      onClick={() => !n.read && onRead(n.id)}
      p="xs"
      style={{ borderRadius: 4, background: n.read ? undefined : 'var(--mantine-color-yellow-light)' }}
      data-testid="notification-row"
      data-read={n.read}
      title={n.read ? undefined : 'Mark read'}
    >
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" fw={n.read ? 500 : 700} lineClamp={1}>
          {n.title}
        </Text>
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {when(n.createdAt)}
        </Text>
      </Group>
      <Text size="xs" c="dimmed">
        {n.body}
      </Text>
    </UnstyledButton>
  );
}

/**
 * The top bar's bell (issue 13): the unread count of what the server told the user — alerts it
 * fired, also with no tab open — and the list. Mounted whenever someone is signed in, so it is also
 * what rings for a notification that arrives while the app is open (`useAlertNotifications`).
 */
export function NotificationsBell() {
  const { data } = useNotifications();
  useAlertNotifications(data);
  const markRead = useMarkNotificationsRead();
  const unread = data?.unread ?? 0;
  const items = data?.items ?? [];
  const semiAuto = useFeatureFlag('FF_ENABLE_SEMI_AUTO');
  const [activity, setActivity] = useState(false);
  return (
    <>
    <Popover width={380} position="bottom-end" shadow="md" withArrow>
      <Popover.Target>
        <Indicator label={unread > 99 ? '99+' : unread} size={16} color="red" offset={4} disabled={unread === 0} data-testid="notifications-unread">
          <ActionIcon variant="subtle" aria-label={unread ? `Notifications: ${unread} unread` : 'Notifications'} data-testid="notifications-bell">
            <IconBell size={20} />
          </ActionIcon>
        </Indicator>
      </Popover.Target>
      <Popover.Dropdown p="xs" data-testid="notifications-list">
        <Group justify="space-between" mb={4} px={4}>
          <Text fw={700} size="sm">
            Notifications
          </Text>
          <Button size="compact-xs" variant="subtle" disabled={unread === 0} onClick={() => markRead.mutate({})}>
            Mark all read
          </Button>
        </Group>
        {items.length === 0 ? (
          <Text size="sm" c="dimmed" p="xs">
            Nothing yet. Alerts the server fires show here, also when no tab was open.
          </Text>
        ) : (
          <ScrollArea.Autosize mah={420}>
            <Stack gap={4}>
              {items.map((n) => (
                <Row key={n.id} n={n} onRead={(id) => markRead.mutate({ ids: [id] })} />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
        {semiAuto ? (
          <Group justify="flex-end" mt={4}>
            <Button size="compact-xs" variant="subtle" onClick={() => setActivity(true)}>
              Server activity
            </Button>
          </Group>
        ) : null}
      </Popover.Dropdown>
    </Popover>
    <ActivityLogModal opened={activity} onClose={() => setActivity(false)} />
    </>
  );
}
