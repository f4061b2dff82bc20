import { LAYOUT_NAME_MAX, NAMED_LAYOUTS_MAX, type NamedLayouts, type StoredLayout } from '../../api/contracts/settings';

/** Trims and collapses inner whitespace, so "Scalping " and "Scalping" are one layout. */
export function normalizeLayoutName(input: string): string {
  return input.trim().replace(/\s+/g, ' ');
}

/** Why a name cannot be used for saving, or null when it can. */
export function layoutNameError(named: Readonly<NamedLayouts>, input: string): string | null {
  const name = normalizeLayoutName(input);
  if (name === '') return 'Enter a name';
  if (name.length > LAYOUT_NAME_MAX) return `Use at most ${LAYOUT_NAME_MAX} characters`;
  if (!(name in named) && Object.keys(named).length >= NAMED_LAYOUTS_MAX) return `You can keep ${NAMED_LAYOUTS_MAX} layouts; delete one first`;
  return null;
}

/** The named layouts with `layout` saved under `name` (replacing a layout of that name). */
export function withNamedLayout(named: Readonly<NamedLayouts>, input: string, layout: StoredLayout): NamedLayouts {
  return { ...named, [normalizeLayoutName(input)]: layout };
}

export function withoutNamedLayout(named: Readonly<NamedLayouts>, name: string): NamedLayouts {
  const next = { ...named };
  delete next[name];
  return next;
}

/** Names in the order the menu lists them (case-insensitive, numbers in numeric order). */
export function layoutNames(named: Readonly<NamedLayouts>): string[] {
  return Object.keys(named).sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true }));
}
