import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { NamedLayouts } from '../../api/contracts/settings';
import { layoutNameError, normalizeLayoutName } from './named-layouts';

/** Which of the layouts menu's dialogs is open. */
export type LayoutDialog = { kind: 'save' } | { kind: 'reset' } | { kind: 'delete'; name: string } | null;

/** Saves the current layout under `name`; exactly one of the callbacks runs when the server answers. */
export type SaveLayout = (name: string, result: { onSaved: () => void; onFailed: () => void }) => void;

export interface LayoutDialogsProps {
  dialog: LayoutDialog;
  namedLayouts: NamedLayouts;
  onClose: () => void;
  onSave: SaveLayout;
  onReset: () => void;
  onDelete: (name: string) => void;
}

/** The layouts menu's dialogs: "Save layout" (a name), and the confirms of reset and delete. */
export function LayoutDialogs({ dialog, namedLayouts, onClose, onSave, onReset, onDelete }: LayoutDialogsProps) {
  return (
    <>
      <SaveLayoutModal opened={dialog?.kind === 'save'} namedLayouts={namedLayouts} onClose={onClose} onSave={onSave} />
      <ConfirmModal opened={dialog?.kind === 'reset'} title="Reset the layout?" confirmLabel="Reset layout" onClose={onClose} onConfirm={onReset}>
        The panels go back to the default arrangement. Your saved layouts are kept.
      </ConfirmModal>
      <ConfirmModal
        opened={dialog?.kind === 'delete'}
        title="Delete the layout?"
        confirmLabel="Delete"
        onClose={onClose}
        onConfirm={() => {
          if (dialog?.kind === 'delete') onDelete(dialog.name);
        }}
      >
        {dialog?.kind === 'delete' ? `"${dialog.name}" is deleted on every device. The layout you are using now stays as it is.` : null}
      </ConfirmModal>
    </>
  );
}

function SaveLayoutModal(props: { opened: boolean; namedLayouts: NamedLayouts; onClose: () => void; onSave: SaveLayout }) {
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
