import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ApiKey } from '../../../api/contracts/api-keys';
import { useConfig } from '../../../api/config/get-config';
import { useSetServerCustody } from '../../../api/trade/managed';

export const CONSENT_TEXT =
  'Every bracket is guarded by the server, so it holds with your browser closed: it places a resting entry’s stop-loss and take-profits the moment the entry fills, ' +
  'cancels what is left of the bracket when its position closes, and — when you ask — moves the stop to break-even or trails it. ' +
  "To do that it keeps this key's credentials on the server, encrypted under the server's own key (SERVER_SECRET), for as long as a bracket of the key is open; " +
  'they are deleted when the last one ends or when you turn this off. Every action it takes is in the activity log.';

export const NO_CUSTODY_TEXT =
  'This server cannot hold exchange credentials (its operator has not set SERVER_SECRET), so it cannot guard brackets: place single orders, or ask the operator to set it.';

/**
 * The owner's consent for a key (issues 13, 21): asked once per key, before its first bracket.
 * `onAllowed` runs once the server has recorded it (the bracket that asked is then sent).
 */
export function CustodyConsentModal({ apiKey, opened, onClose, onAllowed }: { apiKey: ApiKey; opened: boolean; onClose: () => void; onAllowed?: () => void }) {
  const custody = useSetServerCustody();
  const config = useConfig();
  const possible = config.data?.custody !== false;
  return (
    <Modal opened={opened} onClose={onClose} title={`Let the server guard brackets with ${apiKey.name}?`}>
      <Stack gap="sm">
        <Text size="sm">{possible ? CONSENT_TEXT : NO_CUSTODY_TEXT}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Not now
          </Button>
          <Button
            disabled={!possible}
            loading={custody.isPending}
            onClick={() =>
              custody.mutate(
                { apiKeyId: apiKey.id, on: true },
                {
                  onSuccess: () => {
                    onClose();
                    onAllowed?.();
                  },
                },
              )
            }
          >
            Allow
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
