import { ActionIcon, ColorSwatch, Divider, Stack, Tooltip } from '@mantine/core';
import { IconChartArcs, IconMinus, IconPointer, IconRectangle, IconTargetArrow, type TablerIcon } from '@tabler/icons-react';
import { useSnapshot } from 'valtio';
import { DRAWING_COLORS, drawingSettings, setDrawingColor, setDrawingMode, type DrawingColor, type DrawingMode } from '../../state/drawing-settings';

const TOOLS: readonly { mode: DrawingMode; label: string; icon: TablerIcon; fib?: true }[] = [
  { mode: 'default', label: 'Select', icon: IconPointer },
  { mode: 'line', label: 'Horizontal Line', icon: IconMinus },
  { mode: 'rectangle', label: 'Rectangle', icon: IconRectangle },
  { mode: 'fib-retracement', label: 'Fib Retracement', icon: IconChartArcs, fib: true },
];

/** Swatch colours; the engine draws with its own theme's shade of each. */
const SWATCH: Record<DrawingColor, string> = {
  yellow: 'var(--mantine-color-yellow-5)',
  green: 'var(--mantine-color-teal-5)',
  red: 'var(--mantine-color-red-6)',
  blue: 'var(--mantine-color-blue-5)',
};

const capitalised = (s: string) => s[0].toUpperCase() + s.slice(1);

/**
 * The drawing tools (SPEC §3 modes: Select, Horizontal Line, Rectangle, Fib Retracement) and the
 * colour of new drawings (yellow, green, red, blue; default blue), down the chart's left edge. Tool
 * and colour are the device's drawing settings, shared by every chart: the chart the user then
 * draws in places the drawing, and goes back to Select. `position` (a chart's own, not shared): the
 * position tool's button — stop, entry, size from risk and a bracket to place (issue 25).
 */
export function DrawingToolbar({ fibEnabled, position }: { fibEnabled: boolean; position?: { active: boolean; toggle: () => void } }) {
  const { mode, color } = useSnapshot(drawingSettings);
  const positionOn = position?.active === true;
  return (
    <Stack gap={2} p={3} role="toolbar" aria-label="Drawing tools" aria-orientation="vertical" data-testid="drawing-toolbar" style={{ flexShrink: 0, borderRight: '1px solid var(--mantine-color-dark-4)' }}>
      {TOOLS.filter((t) => fibEnabled || !t.fib).map(({ mode: m, label, icon: Icon }) => (
        <Tooltip key={m} label={label} position="right" withinPortal={false}>
          <ActionIcon
            variant={mode === m && !positionOn ? 'light' : 'subtle'}
            color={mode === m && !positionOn ? undefined : 'gray'}
            size="md"
            aria-label={label}
            aria-pressed={mode === m && !positionOn}
            onClick={() => {
              // Any drawing tool (Select too) ends the position tool of this chart.
              if (positionOn) position?.toggle();
              setDrawingMode(m);
            }}
          >
            <Icon size={18} stroke={1.6} />
          </ActionIcon>
        </Tooltip>
      ))}
      {position ? (
        <Tooltip label="Position (size from risk, place a bracket)" position="right" withinPortal={false}>
          <ActionIcon
            variant={positionOn ? 'light' : 'subtle'}
            color={positionOn ? undefined : 'gray'}
            size="md"
            aria-label="Position"
            aria-pressed={positionOn}
            data-testid="position-tool-button"
            onClick={() => {
              if (!positionOn) setDrawingMode('default');
              position.toggle();
            }}
          >
            <IconTargetArrow size={18} stroke={1.6} />
          </ActionIcon>
        </Tooltip>
      ) : null}
      <Divider my={2} />
      {DRAWING_COLORS.map((c) => (
        <Tooltip key={c} label={`${capitalised(c)} drawings`} position="right" withinPortal={false}>
          <ActionIcon variant={color === c ? 'light' : 'subtle'} color="gray" size="md" aria-label={`Drawing colour ${c}`} aria-pressed={color === c} onClick={() => setDrawingColor(c)}>
            <ColorSwatch component="span" color={SWATCH[c]} size={color === c ? 16 : 12} withShadow={false} />
          </ActionIcon>
        </Tooltip>
      ))}
    </Stack>
  );
}
