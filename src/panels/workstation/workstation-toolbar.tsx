import { Button, Group, Menu, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconChevronDown, IconCloudCheck, IconCloudOff, IconCloudUpload, IconPlus } from '@tabler/icons-react';
import type { Model } from 'flexlayout-react';
import { useState } from 'react';
import type { NamedLayouts } from '../../api/contracts/settings';
import type { PanelDefinition } from '../registry';
import { findPanel } from './layout-model';
import type { LayoutSaveStatus } from './layout-saver';
import { LayoutsMenu, type LayoutsMenuProps } from './layouts-menu';

export interface WorkstationToolbarProps {
  model: Model;
  offered: Readonly<Record<string, PanelDefinition>>;
  namedLayouts: NamedLayouts;
  saveStatus: LayoutSaveStatus;
  onAdd: (kind: string) => void;
  onReset: () => void;
  onLoad: (name: string) => void;
  onSave: LayoutsMenuProps['onSave'];
  onDelete: (name: string) => void;
}

/** The strip above the panels: add a panel, the layouts menu, and whether the layout is saved. */
export function WorkstationToolbar(props: WorkstationToolbarProps) {
  return (
    <Group className="workstation-toolbar" justify="space-between" wrap="nowrap" gap="xs" px={6}>
      <Group gap={4} wrap="nowrap">
        <AddPanelMenu model={props.model} offered={props.offered} onAdd={props.onAdd} />
        <LayoutsMenu
          namedLayouts={props.namedLayouts}
          onReset={props.onReset}
          onLoad={props.onLoad}
          onSave={props.onSave}
          onDelete={props.onDelete}
        />
      </Group>
      <SaveStatus status={props.saveStatus} />
    </Group>
  );
}

function AddPanelMenu({ model, offered, onAdd }: Pick<WorkstationToolbarProps, 'model' | 'offered' | 'onAdd'>) {
  // Controlled, so the "open" marks are computed from the model when the menu opens.
  const [opened, setOpened] = useState(false);
  return (
    <Menu opened={opened} onChange={setOpened} position="bottom-start" shadow="md" width={300}>
      <Menu.Target>
        <Button size="compact-sm" variant="subtle" leftSection={<IconPlus size={14} />} rightSection={<IconChevronDown size={12} />}>
          Add panel
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {opened
          ? Object.entries(offered).map(([kind, definition]) => {
              const open = !definition.allowMultiple && findPanel(model, kind) !== undefined;
              return (
                <Menu.Item
                  key={kind}
                  leftSection={<definition.icon size={16} />}
                  rightSection={open ? <IconCheck size={14} aria-label="open" /> : null}
                  onClick={() => onAdd(kind)}
                  data-panel-kind={kind}
                >
                  <Text size="sm">{definition.title}</Text>
                  <Text size="xs" c="dimmed" lineClamp={2}>
                    {definition.description}
                  </Text>
                </Menu.Item>
              );
            })
          : null}
      </Menu.Dropdown>
    </Menu>
  );
}

const STATUS: Record<LayoutSaveStatus, { label: string; help: string; color: string; Icon: typeof IconCloudCheck }> = {
  saved: { label: 'Saved', help: 'Your layout is saved to your account', color: 'dimmed', Icon: IconCloudCheck },
  pending: { label: 'Saving…', help: 'Your layout is saved a moment after your last change', color: 'dimmed', Icon: IconCloudUpload },
  saving: { label: 'Saving…', help: 'Saving your layout to your account', color: 'dimmed', Icon: IconCloudUpload },
  error: {
    label: 'Not saved',
    help: 'The server could not save your layout. It is kept on this device and sent again with your next change.',
    color: 'red',
    Icon: IconCloudOff,
  },
};

function SaveStatus({ status }: { status: LayoutSaveStatus }) {
  const { label, help, color, Icon } = STATUS[status];
  return (
    <Tooltip label={help} multiline w={260} position="bottom-end">
      <Group gap={4} wrap="nowrap" c={color} data-testid="layout-save-status" aria-live="polite">
        <Icon size={14} />
        <Text size="xs" c={color}>
          {label}
        </Text>
      </Group>
    </Tooltip>
  );
}
