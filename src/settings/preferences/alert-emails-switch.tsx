import { Switch } from '@mantine/core';
import { useConfig } from '../../api/config/get-config';
import { useServerSettings } from '../../api/settings/get-server-settings';
import { useUpdateServerSettings } from '../../api/settings/update-server-settings';

/**
 * "E-mail me when an alert fires" (issue 13): a server setting, since the server fires alerts and
 * sends the mail with no tab open. Off and explained when the server has no SMTP configured.
 */
export function AlertEmailsSwitch() {
  const { data: config } = useConfig();
  const settings = useServerSettings();
  const { mutate } = useUpdateServerSettings();
  const canMail = config?.mail ?? false;
  return (
    <Switch
      label="E-mail me when an alert fires"
      description={
        canMail
          ? 'The server watches your alerts with no tab open; it also e-mails you when one fires'
          : 'This server does not send e-mail (no SMTP configured): alerts show in the app and in the notifications list'
      }
      disabled={!canMail || settings.isPending}
      checked={canMail && (settings.data?.alertEmails ?? false)}
      onChange={(e) => mutate({ alertEmails: e.currentTarget.checked })}
    />
  );
}
