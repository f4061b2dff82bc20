import { Button, Text } from '@mantine/core';
import { IconBellRinging } from '@tabler/icons-react';
import { useState } from 'react';

const current = (): NotificationPermission | 'unsupported' => (typeof Notification === 'undefined' ? 'unsupported' : Notification.permission);

/**
 * Browser notifications reach a trader who is in another window. The browser asks only after a
 * click, hence a button while the permission is undecided; afterwards a line says how it stands.
 */
export function NotificationPermission() {
  const [permission, setPermission] = useState(current);
  if (permission === 'unsupported') return null;
  if (permission === 'default') {
    return (
      <Button
        size="xs"
        variant="light"
        leftSection={<IconBellRinging size={14} />}
        onClick={() => {
          void Notification.requestPermission().then(setPermission, () => setPermission(current()));
        }}
      >
        Enable browser notifications
      </Button>
    );
  }
  return (
    <Text size="xs" c="dimmed">
      {permission === 'granted' ? 'Browser notifications are on.' : 'Browser notifications are blocked for this site (browser settings).'}
    </Text>
  );
}
