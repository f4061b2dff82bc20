import { ActionIcon, Group, Select, Tooltip } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useSnapshot } from 'valtio';
import { setAlertSound, userSettings } from '../../state/user-settings';
import { ALERT_SOUND_IDS, ALERT_SOUND_LABELS, isAlertSoundId, playAlertSound } from '../../ui/alert-sounds';

const OPTIONS = ALERT_SOUND_IDS.map((id) => ({ value: id, label: `${ALERT_SOUND_LABELS[id]} (${id})` }));

/** The sound alerts play (user setting `alertSound`), with a preview button. */
export function AlertSoundPicker() {
  const { alertSound } = useSnapshot(userSettings);
  return (
    <Group gap={4} wrap="nowrap" align="flex-end">
      <Select
        label="Alert sound"
        size="xs"
        w={170}
        allowDeselect={false}
        data={OPTIONS}
        value={alertSound}
        onChange={(next) => {
          if (!next || !isAlertSoundId(next)) return;
          setAlertSound(next);
          // Hearing the choice is the point of choosing it.
          void playAlertSound(next);
        }}
      />
      <Tooltip label="Preview sound" withinPortal={false}>
        <ActionIcon variant="light" size={30} aria-label="Preview sound" onClick={() => void playAlertSound(alertSound)}>
          <IconPlayerPlay size={14} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
