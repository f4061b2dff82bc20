import { Group, Text } from '@mantine/core';
import { IconExclamationCircle } from '@tabler/icons-react';
import { useFeatureFlag } from '../../api/feature-flags/get-feature-flag-map';
import { useMaintenance } from '../../api/maintenance/get-maintenance';

/**
 * SPEC §2: shown when FF_MAINTENANCE_BANNER is on and a message is set. The message is polled every
 * 20 s and on window focus, so a message an admin posts reaches open tabs without a reload.
 */
export function MaintenanceBanner() {
  const enabled = useFeatureFlag('FF_MAINTENANCE_BANNER');
  const { data } = useMaintenance(enabled);
  const message = data?.message?.trim();
  if (!enabled || !message) return null;
  return (
    <Group
      role="alert"
      aria-label="Maintenance"
      gap="xs"
      px="md"
      py={6}
      wrap="nowrap"
      bg="var(--mantine-color-yellow-light)"
      style={{ borderBottom: '1px solid var(--mantine-color-yellow-outline)' }}
      data-testid="maintenance-banner"
    >
      <IconExclamationCircle size={18} color="var(--mantine-color-yellow-6)" aria-hidden style={{ flexShrink: 0 }} />
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {message}
      </Text>
    </Group>
  );
}
