import { proxy } from 'valtio/vanilla';
import { createPersistence } from './persistence';

/** Storage name and version of the hotkey map (device-local: a keyboard belongs to a device). */
export const HOTKEYS_NAME = 'hotkeys';
export const HOTKEYS_VERSION = 1;

/** What a hotkey can do in the workstation (issue 12). */
export const HOTKEY_ACTIONS = [
  'buyMarket',
  'sellMarket',
  'cancelAll',
  'closePosition',
  'nextInterval',
  'previousInterval',
  'toolSelect',
  'toolLine',
  'toolRectangle',
  'toolFib',
] as const;
export type HotkeyAction = (typeof HOTKEY_ACTIONS)[number];

export const HOTKEY_LABELS: Readonly<Record<HotkeyAction, string>> = {
  buyMarket: 'Buy: what Order entry would send (its type, bracket and size)',
  sellMarket: 'Sell: what Order entry would send (its type, bracket and size)',
  cancelAll: 'Cancel all orders on the pair',
  closePosition: 'Close the position on the pair at market',
  nextInterval: 'Next favourite interval (active chart)',
  previousInterval: 'Previous favourite interval (active chart)',
  toolSelect: 'Drawing tool: Select',
  toolLine: 'Drawing tool: Horizontal Line',
  toolRectangle: 'Drawing tool: Rectangle',
  toolFib: 'Drawing tool: Fibonacci retracement',
};

/**
 * Hotkeys that trade (issue 22): off until the trader turns them on in Preferences → Hotkeys, so a
 * stray key never sends an order. Device-local like the key map.
 */
export const TRADING_HOTKEY_ACTIONS: readonly HotkeyAction[] = ['buyMarket', 'sellMarket', 'closePosition'];
export const TRADING_HOTKEYS_OFF = 'Trading hotkeys are off: turn them on in Preferences → Hotkeys';

/** A key combination as stored and shown: modifiers in this order, then the key ("Shift+B", "Alt+H", "]"). */
export type Hotkeys = Record<HotkeyAction, string | null>;

export function defaultHotkeys(): Hotkeys {
  return {
    buyMarket: 'Shift+B',
    sellMarket: 'Shift+S',
    cancelAll: 'Shift+C',
    closePosition: 'Shift+X',
    nextInterval: ']',
    previousInterval: '[',
    toolSelect: 'Alt+V',
    toolLine: 'Alt+H',
    toolRectangle: 'Alt+R',
    toolFib: 'Alt+F',
  };
}

/** Keys that act elsewhere and cannot be assigned, with what they do (shown in the help overlay too). */
export const RESERVED_HOTKEYS: Readonly<Record<string, string>> = {
  'Shift+/': 'Show the keyboard shortcuts',
  'Alt+A': 'Add an alert at the crosshair price',
  Escape: 'Cancel the drawing in progress, or unselect',
  Delete: 'Delete the selected drawing',
  Backspace: 'Delete the selected drawing',
  Tab: 'Move the focus',
  Enter: 'Press the focused button',
  Space: 'Press the focused button',
};

const MODIFIERS = ['Ctrl', 'Alt', 'Shift', 'Meta'] as const;
const NAMED_CODES: Readonly<Record<string, string>> = {
  BracketLeft: '[',
  BracketRight: ']',
  Comma: ',',
  Period: '.',
  Slash: '/',
  Backslash: '\\',
  Minus: '-',
  Equal: '=',
  Semicolon: ';',
  Quote: "'",
  Backquote: '`',
};
const KEY_PATTERN = /^(?:[A-Z0-9]|F(?:[1-9]|1[0-2])|Arrow(?:Up|Down|Left|Right)|Page(?:Up|Down)|Home|End|Insert|[[\]\\,./\-=;'`]|Escape|Delete|Backspace|Tab|Enter|Space)$/;

/**
 * The combination a keydown makes, by physical key (`code`, so Alt+H is Alt+H on every layout and
 * platform); null for a lone modifier or a key that cannot be bound.
 */
export function comboOf(e: Pick<KeyboardEvent, 'code' | 'ctrlKey' | 'altKey' | 'shiftKey' | 'metaKey'>): string | null {
  let key: string | null = null;
  if (/^Key[A-Z]$/.test(e.code)) key = e.code.slice(3);
  else if (/^Digit[0-9]$/.test(e.code)) key = e.code.slice(5);
  else if (/^Numpad[0-9]$/.test(e.code)) key = e.code.slice(6);
  else if (NAMED_CODES[e.code]) key = NAMED_CODES[e.code];
  else if (KEY_PATTERN.test(e.code)) key = e.code;
  if (key === null) return null;
  const mods = [e.ctrlKey && 'Ctrl', e.altKey && 'Alt', e.shiftKey && 'Shift', e.metaKey && 'Meta'].filter(Boolean);
  return [...mods, key].join('+');
}

/** A stored combination is well formed: known modifiers once each, in order, then one key. */
export function isCombo(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 40) return false;
  const parts = value === '+' ? ['+'] : value.split('+');
  const key = parts.pop() ?? '';
  let last = -1;
  for (const m of parts) {
    const i = MODIFIERS.indexOf(m as (typeof MODIFIERS)[number]);
    if (i <= last) return false;
    last = i;
  }
  return KEY_PATTERN.test(key);
}

/** Why `combo` cannot be given to `action` (null: it can): reserved, or already another action's. */
export function hotkeyProblem(keys: Readonly<Hotkeys>, action: HotkeyAction, combo: string): string | null {
  if (RESERVED_HOTKEYS[combo]) return `${combo} is reserved: ${RESERVED_HOTKEYS[combo].toLowerCase()}`;
  const owner = HOTKEY_ACTIONS.find((a) => a !== action && keys[a] === combo);
  return owner ? `${combo} is already “${HOTKEY_LABELS[owner]}”` : null;
}

/** Stored data are never trusted: unknown or malformed entries fall back to the default, duplicates keep the first. */
export function restoreHotkeys(state: object): Hotkeys {
  const raw = state as Record<string, unknown>;
  const out = defaultHotkeys();
  const used = new Set<string>();
  for (const action of HOTKEY_ACTIONS) {
    const v = raw[action];
    const next = v === null ? null : isCombo(v) && !RESERVED_HOTKEYS[v] ? v : out[action];
    out[action] = next !== null && used.has(next) ? null : next;
    if (out[action]) used.add(out[action]!);
  }
  return out;
}

export const hotkeys = proxy<Hotkeys>(defaultHotkeys());

const persistence = createPersistence({
  baseName: HOTKEYS_NAME,
  version: HOTKEYS_VERSION,
  target: hotkeys,
  restore: restoreHotkeys,
  defaults: defaultHotkeys,
});

/** Whether the hotkeys that trade act at all (default: off). */
export const tradingHotkeys = proxy<{ on: boolean }>({ on: false });

const tradingPersistence = createPersistence({
  baseName: 'trading-hotkeys',
  version: 1,
  target: tradingHotkeys,
  restore: (state: object) => ({ on: (state as { on?: unknown }).on === true }),
  defaults: () => ({ on: false }),
});

/** Loads `hotkeys[_<sha256(userId)>]` and saves later changes there (see user settings). */
export async function bindHotkeysToUser(userId: string | null): Promise<void> {
  await Promise.all([persistence.bind(userId), tradingPersistence.bind(userId)]);
}

export function flushHotkeys(): void {
  persistence.flush();
  tradingPersistence.flush();
}

/** Assigns `combo` (null: none) to `action`; returns the problem instead when it cannot. */
export function setHotkey(action: HotkeyAction, combo: string | null): string | null {
  if (combo !== null) {
    if (!isCombo(combo)) return `${combo} cannot be used as a hotkey`;
    const problem = hotkeyProblem(hotkeys, action, combo);
    if (problem) return problem;
  }
  hotkeys[action] = combo;
  return null;
}

export function resetHotkeys(): void {
  Object.assign(hotkeys, defaultHotkeys());
}

/** The action bound to a keydown, if any. */
export function hotkeyActionFor(keys: Readonly<Hotkeys>, e: Pick<KeyboardEvent, 'code' | 'ctrlKey' | 'altKey' | 'shiftKey' | 'metaKey'>): HotkeyAction | null {
  const combo = comboOf(e);
  if (!combo) return null;
  return HOTKEY_ACTIONS.find((a) => keys[a] === combo) ?? null;
}
