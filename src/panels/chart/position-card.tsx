import { Badge, Button, Chip, Group, Paper, Stack, Text } from '@mantine/core';
import { show } from '../shared/trading/format';
import { CustodyConsentModal } from '../shared/trading/custody-consent';
import type { PositionToolState } from './use-position-tool';

/**
 * The position tool's card, floating over the chart while the tool is on: side, entry, stop, the
 * size the user's risk % buys, each target's R, and Place / Cancel. Test ids: `position-card`,
 * `position-side`, `position-size`, `position-note`, `position-place`.
 */
export function PositionCard({ tool, symbol }: { tool: PositionToolState; symbol: string }) {
  if (!tool.active) return null;
  const f = tool.figures;
  return (
    <>
      <Paper
        data-testid="position-card"
        withBorder
        shadow="md"
        p="xs"
        pos="absolute"
        top={36}
        right={84}
        w={230}
        style={{ zIndex: 3 }}
        onPointerDown={(e) => e.stopPropagation()}
      >
        <Stack gap={4}>
          <Group justify="space-between" gap="xs">
            <Text size="sm" fw={600}>
              Position · {symbol}
            </Text>
            {f ? (
              <Badge data-testid="position-side" color={f.side === 'BUY' ? 'teal' : 'red'} variant="light">
                {f.side === 'BUY' ? 'Long' : 'Short'}
              </Badge>
            ) : null}
          </Group>
          {f ? (
            <>
              <Row label="Entry (limit)" value={f.entry} testId="position-entry" />
              <Row label="Stop" value={f.stop} testId="position-stop" />
              <Group gap={4} data-testid="position-risk-picks">
                {[...new Set([...tool.riskOptions, tool.riskPercent])].sort((a, b) => a - b).map((r) => (
                  <Chip key={r} size="xs" checked={tool.riskPercent === r} onChange={() => tool.pickRisk(r)}>
                    {r}%
                  </Chip>
                ))}
              </Group>
              <Row label={`Size at ${tool.riskPercent} % risk`} value={show(f.qty)} testId="position-size" />
              <Row label="Risk" value={`${show(f.riskAmount, 8)} ${tool.currency}`} />
              {f.clamped ? (
                <Text size="xs" c="yellow">
                  {f.clamped === 'min' ? 'The risk buys less than the smallest order: the minimum is shown, at more risk' : 'Capped at the largest order'}
                </Text>
              ) : null}
              {f.targets.map((t, i) => (
                <Row key={i} label={`TP${i + 1} · ${t.qtyPercent} %`} value={`${t.price} · ${t.r}R`} testId={`position-target-${i + 1}`} />
              ))}
            </>
          ) : (
            <Text size="xs" c="dimmed">
              Click the stop, then the entry — or drag from the entry to the stop. Drag a level to move it; Escape cancels.
            </Text>
          )}
          {tool.note ? (
            <Text size="xs" c="orange" data-testid="position-note">
              {tool.note}
            </Text>
          ) : null}
          <Group justify="flex-end" gap="xs" mt={4}>
            <Button size="compact-sm" variant="default" onClick={tool.stop} data-testid="position-cancel">
              Cancel
            </Button>
            <Button size="compact-sm" disabled={!tool.canPlace} loading={tool.busy} onClick={tool.place} data-testid="position-place">
              Place
            </Button>
          </Group>
        </Stack>
      </Paper>
      {tool.apiKey ? <CustodyConsentModal apiKey={tool.apiKey} opened={tool.consentFor !== null} onClose={tool.closeConsent} onAllowed={tool.sendConsented} /> : null}
    </>
  );
}

function Row({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="xs" ff="monospace" data-testid={testId}>
        {value}
      </Text>
    </Group>
  );
}
