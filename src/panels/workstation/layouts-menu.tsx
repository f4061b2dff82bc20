import { ActionIcon, Button, Divider, Group, Popover, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconDeviceFloppy, IconLayoutDashboard, IconRestore, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { NamedLayouts } from '../../api/contracts/settings';
import { LayoutDialogs, type LayoutDialog, type SaveLayout } from './layout-dialogs';
import { layoutNames } from './named-layouts';

export interface LayoutsMenuProps {
  namedLayouts: NamedLayouts;
  onReset: () => void;
  onLoad: (name: string) => void;
  /** Saves the current layout under `name`; exactly one of the callbacks runs when the server answers. */
  onSave: SaveLayout;
  onDelete: (name: string) => void;
}

/** Save the layout under a name, switch to a saved one, delete one, or reset to the default layout. */
export function LayoutsMenu({ namedLayouts, onReset, onLoad, onSave, onDelete }: LayoutsMenuProps) {
  const [opened, setOpened] = useState(false);
  const [dialog, setDialog] = useState<LayoutDialog>(null);
  const open = (next: LayoutDialog) => {
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
            <SavedLayoutList
              names={layoutNames(namedLayouts)}
              onOpen={(name) => {
                setOpened(false);
                onLoad(name);
              }}
              onDelete={(name) => open({ kind: 'delete', name })}
            />
          </Stack>
        </Popover.Dropdown>
      </Popover>

      <LayoutDialogs dialog={dialog} namedLayouts={namedLayouts} onClose={() => setDialog(null)} onSave={onSave} onReset={onReset} onDelete={onDelete} />
    </>
  );
}

/** The saved layouts in the menu: the name opens it, the bin asks to delete it. */
function SavedLayoutList({ names, onOpen, onDelete }: { names: readonly string[]; onOpen: (name: string) => void; onDelete: (name: string) => void }) {
  if (names.length === 0) {
    return (
      <Text size="xs" c="dimmed" px={8} pb={4}>
        None yet. Save this layout to switch back to it later, on any device.
      </Text>
    );
  }
  return (
    <Stack gap={0} role="list" aria-label="Saved layouts">
      {names.map((name) => (
        <Group key={name} gap={2} wrap="nowrap" role="listitem" className="workstation-named-layout">
          <UnstyledButton px={8} py={4} style={{ flex: 1, minWidth: 0 }} aria-label={`Open layout ${name}`} onClick={() => onOpen(name)}>
            <Text size="sm" truncate>
              {name}
            </Text>
          </UnstyledButton>
          <Tooltip label="Delete" withinPortal={false}>
            <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Delete layout ${name}`} onClick={() => onDelete(name)}>
              <IconTrash size={14} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ))}
    </Stack>
  );
}
