import { Alert, Badge, Group, Tooltip } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ApiKeyPermissions } from '../../api/contracts/api-keys';

export const WITHDRAW_WARNING = 'Withdrawal is enabled on this key: anyone who obtains it can move funds off the exchange. A trading terminal never needs it — create a key without withdrawal permission.';

/** What the exchange said the key may do: Read / Trade / Read only, and a red warning badge for withdrawal. */
export function PermissionBadges({ permissions }: { permissions: ApiKeyPermissions }) {
  return (
    <Group gap={4} wrap="nowrap">
      {permissions.read ? (
        <Badge size="sm" variant="light" color="gray">
          Read
        </Badge>
      ) : null}
      {permissions.trade ? (
        <Badge size="sm" variant="light" color="teal">
          Trade
        </Badge>
      ) : (
        <Badge size="sm" variant="light" color="yellow">
          Read only
        </Badge>
      )}
      {permissions.withdraw ? (
        <Tooltip label={WITHDRAW_WARNING} multiline w={320}>
          <Badge size="sm" color="red" leftSection={<IconAlertTriangle size={12} aria-hidden />}>
            Withdraw
          </Badge>
        </Tooltip>
      ) : null}
    </Group>
  );
}

/** The warning under a key whose withdrawal permission is on, and a note when it cannot trade. */
export function PermissionWarnings({ permissions }: { permissions: ApiKeyPermissions }) {
  return (
    <>
      {permissions.withdraw ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="Withdrawal permission enabled">
          {WITHDRAW_WARNING}
        </Alert>
      ) : null}
      {!permissions.trade ? (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} title="Read-only key">
          The exchange does not allow this key to trade: orders placed with it will be refused.
        </Alert>
      ) : null}
    </>
  );
}
