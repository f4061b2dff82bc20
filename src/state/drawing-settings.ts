import { proxy } from 'valtio/vanilla';
import type { ExchangeId } from '../api/contracts/common';
import { createPersistence } from './persistence';
import { migrateDrawingSettings } from './drawing-settings-migrations';
import {
  DRAWING_SETTINGS_NAME,
  DRAWING_SETTINGS_VERSION,
  FIB_DEFAULTS,
  defaultDrawingSettings,
  type DrawingColor,
  type DrawingMode,
  type DrawingSettings,
  type FibRect,
  type FibSelection,
} from './drawing-settings-model';

export * from './drawing-settings-model';
export { migrateDrawingSettings } from './drawing-settings-migrations';

/**
 * Device-local drawing settings (SPEC §3): the active tool and its colour. `fibSelections` is what
 * older builds kept here; the records now live in the server settings (`fibs`), where the chart
 * panel moves these and then removes them (see README).
 */
export const drawingSettings = proxy<DrawingSettings>(defaultDrawingSettings());

const persistence = createPersistence({
  baseName: DRAWING_SETTINGS_NAME,
  version: DRAWING_SETTINGS_VERSION,
  target: drawingSettings,
  restore: migrateDrawingSettings,
  defaults: defaultDrawingSettings,
});

/** Loads `drawing_settings[_<sha256(userId)>]` and saves later changes there (see user settings). */
export function bindDrawingSettingsToUser(userId: string | null): Promise<void> {
  return persistence.bind(userId);
}

export function flushDrawingSettings(): void {
  persistence.flush();
}

export function drawingSettingsStorageName(): string | null {
  return persistence.boundName();
}

export function receiveExternalDrawingSettings(name: string, raw: string | null): void {
  persistence.receiveExternal(name, raw);
}

export function setDrawingMode(mode: DrawingMode): void {
  drawingSettings.mode = mode;
}

export function setDrawingColor(color: DrawingColor): void {
  drawingSettings.color = color;
}

function newId(): string {
  return globalThis.crypto?.randomUUID?.() ?? `fib-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

export interface NewFibSelection {
  exchange: ExchangeId;
  symbol: string;
  rect: FibRect;
  /** Defaults to the current drawing colour. */
  fibColor?: DrawingColor;
  id?: string;
}

/** Stores a committed retracement with the SPEC §3 fib defaults; returns it. */
export function addFibSelection(input: NewFibSelection): FibSelection {
  const selection: FibSelection = {
    ...FIB_DEFAULTS,
    id: input.id ?? newId(),
    exchange: input.exchange,
    symbol: input.symbol,
    rect: { ...input.rect },
    fibColor: input.fibColor ?? drawingSettings.color,
  };
  drawingSettings.fibSelections.push(selection);
  return selection;
}

/** Moves a retracement or edits its fields; returns false when the id is unknown. */
export function updateFibSelection(id: string, patch: Partial<Omit<FibSelection, 'id' | 'exchange' | 'symbol'>>): boolean {
  const selection = drawingSettings.fibSelections.find((f) => f.id === id);
  if (!selection) return false;
  if (patch.rect) selection.rect = { ...patch.rect };
  for (const key of ['fibColor', 'fibAmountOfPositiveLines', 'fibIncrement', 'fibMainValue', 'fibCustomValue'] as const) {
    const value = patch[key];
    if (value !== undefined) (selection as Record<typeof key, string>)[key] = value;
  }
  return true;
}

export function removeFibSelection(id: string): boolean {
  const index = drawingSettings.fibSelections.findIndex((f) => f.id === id);
  if (index < 0) return false;
  drawingSettings.fibSelections.splice(index, 1);
  return true;
}

/** The retracements of one chart (pure; pass a snapshot's list). */
export function fibSelectionsFor<T extends Pick<FibSelection, 'exchange' | 'symbol'>>(
  list: readonly T[],
  exchange: ExchangeId,
  symbol: string,
): T[] {
  return list.filter((f) => f.exchange === exchange && f.symbol === symbol);
}
