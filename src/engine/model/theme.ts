import { parseColor, type Rgba } from '../core/colors';
import type { DrawingColor } from '../drawings/records';
import type { Theme } from '../types';

export const DEFAULT_THEME: Theme = {
  background: '#131722',
  grid: '#1f2433',
  text: '#b2b5be',
  axisBackground: '#131722',
  axisBorder: '#2a2e39',
  up: '#26a69a',
  down: '#ef5350',
  volumeUp: 'rgba(38,166,154,0.35)',
  volumeDown: 'rgba(239,83,80,0.35)',
  crosshair: '#9598a1',
  crosshairLabel: '#363a45',
  crosshairLabelText: '#e0e3eb',
  alert: '#ff9800',
  buy: '#2196f3',
  sell: '#e91e63',
  liquidation: '#ff5722',
  breakEven: '#9e9e9e',
  selection: '#ffffff',
  drawing: { yellow: '#f5c518', green: '#4caf50', red: '#f23645', blue: '#2962ff' },
  fontFamily: 'DejaVu Sans, Verdana, Arial, sans-serif',
  fontSize: 11,
};

/** The theme with colours parsed once (primitives carry packed colours). */
export interface ResolvedTheme {
  source: Theme;
  background: Rgba;
  grid: Rgba;
  text: Rgba;
  axisBackground: Rgba;
  axisBorder: Rgba;
  up: Rgba;
  down: Rgba;
  volumeUp: Rgba;
  volumeDown: Rgba;
  crosshair: Rgba;
  crosshairLabel: Rgba;
  crosshairLabelText: Rgba;
  alert: Rgba;
  buy: Rgba;
  sell: Rgba;
  liquidation: Rgba;
  breakEven: Rgba;
  selection: Rgba;
  drawing: Record<DrawingColor, Rgba>;
  fontSize: number;
}

export function resolveTheme(partial: Partial<Theme> | undefined): ResolvedTheme {
  const t: Theme = { ...DEFAULT_THEME, ...partial, drawing: { ...DEFAULT_THEME.drawing, ...partial?.drawing } };
  return {
    source: t,
    background: parseColor(t.background),
    grid: parseColor(t.grid),
    text: parseColor(t.text),
    axisBackground: parseColor(t.axisBackground),
    axisBorder: parseColor(t.axisBorder),
    up: parseColor(t.up),
    down: parseColor(t.down),
    volumeUp: parseColor(t.volumeUp),
    volumeDown: parseColor(t.volumeDown),
    crosshair: parseColor(t.crosshair),
    crosshairLabel: parseColor(t.crosshairLabel),
    crosshairLabelText: parseColor(t.crosshairLabelText),
    alert: parseColor(t.alert),
    buy: parseColor(t.buy),
    sell: parseColor(t.sell),
    liquidation: parseColor(t.liquidation),
    breakEven: parseColor(t.breakEven),
    selection: parseColor(t.selection),
    drawing: {
      yellow: parseColor(t.drawing.yellow),
      green: parseColor(t.drawing.green),
      red: parseColor(t.drawing.red),
      blue: parseColor(t.drawing.blue),
    },
    fontSize: t.fontSize,
  };
}
