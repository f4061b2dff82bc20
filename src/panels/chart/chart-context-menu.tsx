import { Menu } from '@mantine/core';
import { IconBellPlus, IconFocusCentered, IconMinus } from '@tabler/icons-react';

/** Where the menu was opened: pixels inside the chart body, and the price under the pointer. */
export interface ContextMenuPoint {
  x: number;
  y: number;
  price: number | null;
}

export interface ChartContextMenuProps {
  at: ContextMenuPoint | null;
  /** The price as the chart shows it (the instrument's precision). */
  priceLabel: string;
  onClose: () => void;
  /** Absent when alerts are turned off. */
  onAddAlert?: () => void;
  /** Absent when drawing is turned off. */
  onAddLine?: () => void;
  onResetView: () => void;
  /** With a line or rectangle selected: alerts tied to it ("Alert on this line", "…top edge"). */
  drawingAlerts?: Array<{ label: string; onClick: () => void }>;
}

/**
 * The chart's right-click menu, opened at the pointer: set an alert or draw a horizontal line at the
 * price under it (the same price the crosshair shows), set an alert that follows the selected
 * drawing, or reset the view.
 */
export function ChartContextMenu({ at, priceLabel, onClose, onAddAlert, onAddLine, onResetView, drawingAlerts = [] }: ChartContextMenuProps) {
  const hasPrice = at?.price != null;
  return (
    <Menu opened={at !== null} onChange={(open) => !open && onClose()} position="bottom-start" offset={2} shadow="md" withinPortal>
      <Menu.Target>
        <div aria-hidden style={{ position: 'absolute', left: at?.x ?? 0, top: at?.y ?? 0, width: 1, height: 1, pointerEvents: 'none' }} />
      </Menu.Target>
      <Menu.Dropdown aria-label="Chart menu">
        {onAddAlert && hasPrice ? (
          <Menu.Item leftSection={<IconBellPlus size={14} />} onClick={onAddAlert}>
            Add alert at {priceLabel}
          </Menu.Item>
        ) : null}
        {drawingAlerts.map((d) => (
          <Menu.Item key={d.label} leftSection={<IconBellPlus size={14} />} onClick={d.onClick}>
            {d.label}
          </Menu.Item>
        ))}
        {onAddLine && hasPrice ? (
          <Menu.Item leftSection={<IconMinus size={14} />} onClick={onAddLine}>
            Draw horizontal line at {priceLabel}
          </Menu.Item>
        ) : null}
        <Menu.Item leftSection={<IconFocusCentered size={14} />} onClick={onResetView}>
          Reset chart view
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
