import { ActionIcon, Button, Divider, Group, Modal, Popover, Stack, Text, TextInput, Tooltip, UnstyledButton } from '@mantine/core';
import { IconBookmarks, IconCheck, IconChevronDown, IconDeviceFloppy, IconTrash } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { SCANNER_PRESET_NAME_MAX, type ScannerPresets, type ScannerView } from '../../api/contracts/scanner';
import { normalizePresetName, presetNameError, presetNames, presetOf } from './scanner-presets';

export interface ScannerPresetsMenuProps {
  presets: ScannerPresets;
  /** False until the server settings have loaded (nothing can be saved or listed yet). */
  loaded: boolean;
  view: ScannerView;
  onApply: (view: ScannerView) => void;
  onSave: (name: string) => void;
  onDelete: (name: string) => void;
}

/** Apply a saved view, save the current one under a name, delete one. */
export function ScannerPresetsMenu({ presets, loaded, view, onApply, onSave, onDelete }: ScannerPresetsMenuProps) {
  const [opened, setOpened] = useState(false);
  const [saving, setSaving] = useState(false);
  const names = presetNames(presets);
  const current = presetOf(presets, view);

  return (
    <>
      <Popover opened={opened} onChange={setOpened} position="bottom-start" shadow="md" width={260}>
        <Popover.Target>
          <Button
            size="compact-xs"
            variant="subtle"
            leftSection={<IconBookmarks size={14} />}
            rightSection={<IconChevronDown size={12} />}
            onClick={() => setOpened((o) => !o)}
            disabled={!loaded}
          >
            {current ?? 'Presets'}
          </Button>
        </Popover.Target>
        <Popover.Dropdown p={6}>
          <Stack gap={2}>
            <Button
              variant="subtle"
              size="compact-sm"
              justify="flex-start"
              leftSection={<IconDeviceFloppy size={14} />}
              onClick={() => {
                setOpened(false);
                setSaving(true);
              }}
            >
              Save view as preset…
            </Button>
            <Divider my={4} label="Presets" labelPosition="left" />
            {names.length === 0 ? (
              <Text size="xs" c="dimmed" px={8} pb={4}>
                None yet. Save the filters and sort you use often; they follow you to any device.
              </Text>
            ) : (
              <Stack gap={0} role="list" aria-label="Scanner presets">
                {names.map((name) => (
                  <Group key={name} gap={2} wrap="nowrap" role="listitem">
                    <UnstyledButton
                      px={8}
                      py={4}
                      style={{ flex: 1, minWidth: 0 }}
                      aria-label={`Apply preset ${name}`}
                      onClick={() => {
                        setOpened(false);
                        onApply(presets[name]);
                      }}
                    >
                      <Group gap={6} wrap="nowrap">
                        <Text size="sm" truncate>
                          {name}
                        </Text>
                        {name === current ? <IconCheck size={12} aria-label="in use" /> : null}
                      </Group>
                    </UnstyledButton>
                    <Tooltip label="Delete" withinPortal={false}>
                      <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Delete preset ${name}`} onClick={() => onDelete(name)}>
                        <IconTrash size={14} />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                ))}
              </Stack>
            )}
          </Stack>
        </Popover.Dropdown>
      </Popover>
      <SavePresetModal opened={saving} presets={presets} onClose={() => setSaving(false)} onSave={onSave} />
    </>
  );
}

function SavePresetModal(props: { opened: boolean; presets: ScannerPresets; onClose: () => void; onSave: (name: string) => void }) {
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const error = presetNameError(props.presets, name);
  const replaces = normalizePresetName(name) in props.presets;
  const close = () => {
    setName('');
    setTouched(false);
    props.onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (error) return;
    props.onSave(normalizePresetName(name));
    close();
  };
  return (
    <Modal opened={props.opened} onClose={close} title="Save scanner preset" size="sm">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Preset name"
            placeholder="e.g. Big movers"
            data-autofocus
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            onBlur={() => setTouched(true)}
            error={touched ? error : null}
            description={replaces ? 'A preset has this name: it is replaced.' : 'Filters, sort and favourites first, as they are now.'}
            maxLength={SCANNER_PRESET_NAME_MAX + 20}
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit">{replaces ? 'Replace' : 'Save'}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
