import { List, Stack, Text, Title } from '@mantine/core';
import { useSnapshot } from 'valtio';
import { EXCHANGE_DISPLAY_NAMES } from '../../api/contracts/common';
import { userSettings } from '../../state/user-settings';
import type { PanelProps } from '../shared/panel-props';
import { UPCOMING_PANELS } from './upcoming-panels';

/** A trading panel that is not built yet: what it will hold, and the market it will act on. */
export function UpcomingPanel({ node }: PanelProps) {
  const text = UPCOMING_PANELS[node.getComponent() ?? ''];
  const { exchangeName, tradingPair } = useSnapshot(userSettings);
  if (!text) return null;
  return (
    <Stack gap="xs" p="md" h="100%" style={{ overflow: 'auto' }} data-testid={`upcoming-${node.getComponent() ?? ''}`}>
      <Title order={5}>{node.getName()}</Title>
      <Text size="sm">{text.summary}</Text>
      <List size="sm" c="dimmed" spacing={2}>
        {text.points.map((point) => (
          <List.Item key={point}>{point}</List.Item>
        ))}
      </List>
      <Text size="xs" c="dimmed">
        Coming soon · will act on {tradingPair} on {EXCHANGE_DISPLAY_NAMES[exchangeName]}
      </Text>
    </Stack>
  );
}
