import { ActionIcon, Button, Divider, Group, Modal, Popover, Stack, Text, TextInput, Tooltip, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconDeviceFloppy, IconLayoutDashboard, IconRestore, IconTrash } from '@tabler/icons-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { NamedLayouts } from '../../api/contracts/settings';
import { layoutNameError, layoutNames, normalizeLayoutName } from './named-layouts';

export interface LayoutsMenuProps {
  namedLayouts: NamedLayouts;
  onReset: () => void;
  onLoad: (name: string) => void;
  /** Saves the current layout under `name`; exactly one of the callbacks runs when the server answers. */
  onSave: (name: string, result: { onSaved: () => void; onFailed: () => void }) => void;
  onDelete: (name: string) => void;
}

type Dialog = { kind: 'save' } | { kind: 'reset' } | { kind: 'delete'; name: string } | null;

/** Save the layout under a name, switch to a saved one, delete one, or reset to the default layout. */
export function LayoutsMenu({ namedLayouts, onReset, onLoad, onSave, onDelete }: LayoutsMenuProps) {
  const [opened, setOpened] = useState(false);
  const [dialog, setDialog] = useState<Dialog>(null);
  const names = layoutNames(namedLayouts);
  const open = (next: Dialog) => {
    setOpened(false);
    setDialog(next);
  };

  return (
    <>
      <Popover opened={opened} onChange={setOpened} position="bottom-start" shadow="md" width={280}>
        <Popover.Target>
          <Button
            size="compact-sm"
            variant="subtle"
            leftSection={<IconLayoutDashboard size={14} />}
            rightSection={<IconChevronDown size={12} />}
            onClick={() => setOpened((o) => !o)}
          >
            Layouts
          </Button>
        </Popover.Target>
        <Popover.Dropdown p={6}>
          <Stack gap={2}>
            <Button variant="subtle" size="compact-sm" justify="flex-start" leftSection={<IconDeviceFloppy size={14} />} onClick={() => open({ kind: 'save' })}>
              Save layout as…
            </Button>
            <Button variant="subtle" size="compact-sm" justify="flex-start" leftSection={<IconRestore size={14} />} onClick={() => open({ kind: 'reset' })}>
              Reset layout
            </Button>
            <Divider my={4} label="Saved layouts" labelPosition="left" />
            {names.length === 0 ? (
              <Text size="xs" c="dimmed" px={8} pb={4}>
                None yet. Save this layout to switch back to it later, on any device.
              </Text>
            ) : (
              <Stack gap={0} role="list" aria-label="Saved layouts">
                {names.map((name) => (
                  <Group key={name} gap={2} wrap="nowrap" role="listitem" className="workstation-named-layout">
                    <UnstyledButton
                      px={8}
                      py={4}
                      style={{ flex: 1, minWidth: 0 }}
                      aria-label={`Open layout ${name}`}
                      onClick={() => {
                        setOpened(false);
                        onLoad(name);
                      }}
                    >
                      <Text size="sm" truncate>
                        {name}
                      </Text>
                    </UnstyledButton>
                    <Tooltip label="Delete" withinPortal={false}>
                      <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Delete layout ${name}`} onClick={() => open({ kind: 'delete', name })}>
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

      <SaveLayoutModal opened={dialog?.kind === 'save'} namedLayouts={namedLayouts} onClose={() => setDialog(null)} onSave={onSave} />
      <ConfirmModal
        opened={dialog?.kind === 'reset'}
        title="Reset the layout?"
        confirmLabel="Reset layout"
        onClose={() => setDialog(null)}
        onConfirm={onReset}
      >
        The panels go back to the default arrangement. Your saved layouts are kept.
      </ConfirmModal>
      <ConfirmModal
        opened={dialog?.kind === 'delete'}
        title="Delete the layout?"
        confirmLabel="Delete"
        onClose={() => setDialog(null)}
        onConfirm={() => {
          if (dialog?.kind === 'delete') onDelete(dialog.name);
        }}
      >
        {dialog?.kind === 'delete' ? `"${dialog.name}" is deleted on every device. The layout you are using now stays as it is.` : null}
      </ConfirmModal>
    </>
  );
}

function SaveLayoutModal(props: { opened: boolean; namedLayouts: NamedLayouts; onClose: () => void; onSave: LayoutsMenuProps['onSave'] }) {
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  const error = layoutNameError(props.namedLayouts, name);
  const replaces = normalizeLayoutName(name) in props.namedLayouts;

  const close = () => {
    setName('');
    setTouched(false);
    setSaving(false);
    props.onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (error) return;
    setSaving(true);
    // A refused save is toasted and leaves the dialog open to try again.
    props.onSave(normalizeLayoutName(name), { onSaved: close, onFailed: () => setSaving(false) });
  };

  return (
    <Modal opened={props.opened} onClose={close} title="Save layout" size="sm">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Layout name"
            placeholder="e.g. Scalping"
            data-autofocus
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            onBlur={() => setTouched(true)}
            error={touched ? error : null}
            description={replaces ? 'A saved layout has this name: it is replaced.' : undefined}
            maxLength={60}
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={saving}>
              {replaces ? 'Replace' : 'Save'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function ConfirmModal(props: { opened: boolean; title: string; confirmLabel: string; children: ReactNode; onClose: () => void; onConfirm: () => void }) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title} size="sm">
      <Stack gap="md">
        <Text size="sm">{props.children}</Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={props.onClose}>
            Cancel
          </Button>
          <Button
            color="red"
            onClick={() => {
              props.onConfirm();
              props.onClose();
            }}
          >
            {props.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
