import { Stack } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { httpStatus } from '../../api/errors';
import { useTradeSettings } from '../../api/funded-users/get-trade-settings';
import { FullAreaLoader } from '../../ui/full-area-loader';
import { MessageScreen } from '../../ui/message-screen';
import { usePageTitle } from '../../ui/use-page-title';
import { FUNDED_BASE, FundedUserHeading } from './funded-user-heading';
import { TradeSettingsForm } from './trade-settings-form';

/** `/admin-panel/users-funded/trade-settings/{userId}`. */
export function TradeSettingsPage() {
  usePageTitle('Trade settings');
  const { userId = '' } = useParams();
  const settings = useTradeSettings(userId);
  return (
    <Stack gap="lg" p="lg">
      <FundedUserHeading userId={userId} title="Trade settings" back={{ to: FUNDED_BASE, label: 'Funded users' }} />
      {settings.isLoading ? (
        <FullAreaLoader description="Loading trade settings" />
      ) : settings.data ? (
        <TradeSettingsForm settings={settings.data} />
      ) : (
        <MessageScreen>{httpStatus(settings.error) === 404 ? 'User not found.' : 'Unable to load the trade settings.'}</MessageScreen>
      )}
    </Stack>
  );
}
