import { ActionIcon, ColorSwatch, Group, Menu, Text, Tooltip } from '@mantine/core';
import { IconLink, IconLinkOff } from '@tabler/icons-react';
import { LINK_COLORS, type LinkColor } from '../../state/chart-links';

const LABEL: Record<LinkColor, string> = { red: 'Red', green: 'Green', blue: 'Blue', yellow: 'Yellow', violet: 'Violet' };

export const linkColorLabel = (color: LinkColor | null): string => (color === null ? 'Not linked' : `${LABEL[color]} group`);

/**
 * Puts a chart into a colour group: charts of one colour show the same pair (each keeps its interval).
 */
export function LinkColorMenu({ value, onChange }: { value: LinkColor | null; onChange: (color: LinkColor | null) => void }) {
  return (
    <Menu position="bottom-start" withinPortal shadow="md">
      <Menu.Target>
        <Tooltip label={`Link: ${linkColorLabel(value)}`} withinPortal={false}>
          <ActionIcon
            variant="subtle"
            size="sm"
            color={value ?? 'gray'}
            aria-label={`Link group: ${linkColorLabel(value)}`}
            data-link={value ?? 'none'}
          >
            {value === null ? <IconLinkOff size={16} /> : <IconLink size={16} />}
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Link charts by colour</Menu.Label>
        <Menu.Item leftSection={<IconLinkOff size={14} />} onClick={() => onChange(null)} aria-checked={value === null}>
          Not linked
        </Menu.Item>
        {LINK_COLORS.map((color) => (
          <Menu.Item key={color} onClick={() => onChange(color)} aria-checked={value === color}>
            <Group gap={8} wrap="nowrap">
              <ColorSwatch color={`var(--mantine-color-${color}-6)`} size={12} />
              <Text size="sm">{LABEL[color]}</Text>
            </Group>
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
