import { rememberApiKeyPassword, setApiKeyId, userSettings } from '../../state';

/** After a key is deleted: drop its remembered password and stop using it in the trade panels. */
export function forgetDeletedKey(id: string): void {
  rememberApiKeyPassword(id, null);
  if (userSettings.apiKeyId === id) setApiKeyId(null);
}
