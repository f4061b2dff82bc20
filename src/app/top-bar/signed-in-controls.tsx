import { ActionIcon, Tooltip } from '@mantine/core';
import { IconHelpCircle, IconUsersGroup } from '@tabler/icons-react';
import { useMe } from '../../api/users/get-me';
import { ExchangePicker } from './exchange-picker';
import { COMMUNITY_URL, HELP_URL } from './external-links';
import { NotificationsBell } from './notifications-bell';
import { UserMenu } from './user-menu';

// The signed-in parts of the top bar are a lazy chunk: the menu, select and tooltip machinery
// (floating-ui) is not needed to show the login page (DESIGN §7 login-page budget).

/** Left side: the exchange picker. */
export function SignedInLeftControls() {
  return <ExchangePicker />;
}

/** Right side: community and help links, and the user menu once the user has loaded. */
export function SignedInRightControls() {
  const { data: user } = useMe();
  return (
    <>
      <Tooltip label="Community">
        <ActionIcon component="a" href={COMMUNITY_URL} target="_blank" rel="noopener noreferrer" variant="subtle" aria-label="Community">
          <IconUsersGroup size={20} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Help">
        <ActionIcon component="a" href={HELP_URL} target="_blank" rel="noopener noreferrer" variant="subtle" aria-label="Help">
          <IconHelpCircle size={20} />
        </ActionIcon>
      </Tooltip>
      <NotificationsBell />
      {user ? <UserMenu user={user} /> : null}
    </>
  );
}
