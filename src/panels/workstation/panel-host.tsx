import { Box, Button, ColorSwatch, Group, Stack, Text } from '@mantine/core';
import type { ITabRenderValues, TabNode } from 'flexlayout-react';
import { useSnapshot } from 'valtio';
import type { FeatureFlagMap } from '../../api/contracts/feature-flags';
import { chartLinks } from '../../state/chart-links';
import { isPanelOffered, panelRegistry, type PanelDefinition } from '../registry';
import { PartBoundary } from '../../ui/part-boundary';
import { PanelMessage } from '../shared/panel-message';
import { CHART_PANEL } from './layout-model';
import { PanelWindowScope } from './popout';

/**
 * The factory's output for one tab: the registered panel, or a message when its id is unknown or
 * its feature flag is off (a saved layout keeps the panel, so it comes back when the flag does).
 */
export function PanelHost({ node, flags }: { node: TabNode; flags: FeatureFlagMap | undefined }) {
  const kind = node.getComponent() ?? '';
  const definition = panelRegistry[kind];
  let content;
  if (!definition) content = <PanelMessage title="This panel is not available">Close it, or reset the layout.</PanelMessage>;
  else if (!isPanelOffered(definition, flags))
    content = <PanelMessage title={`${definition.title} is turned off`}>An administrator has turned this feature off.</PanelMessage>;
  // A panel that fails says so in its own tab; the rest of the workstation goes on.
  else content = <PartBoundary label={definition.title}><definition.component node={node} /></PartBoundary>;
  return (
    <PanelWindowScope node={node}>
      <Box className="workstation-panel" data-testid={`panel-${kind}`} data-panel-id={node.getId()}>
        {content}
      </Box>
    </PanelWindowScope>
  );
}

/** A chart's tab reads its market: "ETHUSDT · 15m", with its link colour. */
function ChartTabTitle({ id }: { id: string }) {
  const chart = useSnapshot(chartLinks).charts[id];
  if (!chart) return <>Chart</>;
  return (
    <Group gap={4} wrap="nowrap" component="span">
      {chart.link ? <ColorSwatch component="span" color={`var(--mantine-color-${chart.link}-6)`} size={8} aria-label={`${chart.link} link`} /> : null}
      <span>
        {chart.symbol} · {chart.interval}
      </span>
    </Group>
  );
}

export function renderTab(node: TabNode, values: ITabRenderValues): void {
  const definition: PanelDefinition | undefined = panelRegistry[node.getComponent() ?? ''];
  if (definition) values.leading = <definition.icon size={14} stroke={1.6} aria-hidden />;
  if (node.getComponent() === CHART_PANEL) values.content = <ChartTabTitle id={node.getId()} />;
}

/** What an empty tabset (every panel closed) shows: the panels one can open in it. */
export function EmptyTabset({ offered, onAdd }: { offered: Readonly<Record<string, PanelDefinition>>; onAdd: (kind: string) => void }) {
  return (
    <Stack align="center" justify="center" gap="xs" p="md" style={{ flexGrow: 1 }} data-testid="empty-tabset">
      <Text c="dimmed" size="sm">
        No panels here. Open one:
      </Text>
      <Group gap={6} justify="center" maw={420}>
        {Object.entries(offered).map(([kind, definition]) => (
          <Button key={kind} size="compact-sm" variant="light" leftSection={<definition.icon size={14} />} onClick={() => onAdd(kind)}>
            {definition.title}
          </Button>
        ))}
      </Group>
    </Stack>
  );
}
