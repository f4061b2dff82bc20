import { SCANNER_PRESET_NAME_MAX, SCANNER_PRESETS_MAX, type ScannerPresets, type ScannerView } from '../../api/contracts/scanner';

/**
 * Named scanner views (server-side `scannerPresets`, so they follow the user). Pure functions of
 * the stored map; the menu saves the result with `PATCH /v1/users/settings` (the key is replaced
 * whole, like `namedLayouts`).
 */

/** Trims and collapses inner whitespace: "Movers " and "Movers" are one preset. */
export const normalizePresetName = (input: string): string => input.trim().replace(/\s+/g, ' ');

/** Why a name cannot be saved, or null. */
export function presetNameError(presets: Readonly<ScannerPresets>, input: string): string | null {
  const name = normalizePresetName(input);
  if (name === '') return 'Enter a name';
  if (name.length > SCANNER_PRESET_NAME_MAX) return `Use at most ${SCANNER_PRESET_NAME_MAX} characters`;
  if (!(name in presets) && Object.keys(presets).length >= SCANNER_PRESETS_MAX) return `You can keep ${SCANNER_PRESETS_MAX} presets; delete one first`;
  return null;
}

export const withPreset = (presets: Readonly<ScannerPresets>, input: string, view: ScannerView): ScannerPresets => ({ ...presets, [normalizePresetName(input)]: view });

export function withoutPreset(presets: Readonly<ScannerPresets>, name: string): ScannerPresets {
  const next = { ...presets };
  delete next[name];
  return next;
}

/** Names in menu order (case-insensitive, numbers in numeric order). */
export const presetNames = (presets: Readonly<ScannerPresets>): string[] =>
  Object.keys(presets).sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true }));

/** The preset the view is exactly (the menu marks it), if any. */
export function presetOf(presets: Readonly<ScannerPresets>, view: ScannerView): string | null {
  const json = JSON.stringify(view);
  return presetNames(presets).find((name) => JSON.stringify(presets[name]) === json) ?? null;
}
