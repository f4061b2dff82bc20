import { DEFAULT_DRAWING_COLOR, DRAWING_COLORS, DRAWING_SETTINGS_VERSION, FIB_DEFAULTS, sanitizeDrawingSettings, type DrawingSettings } from './drawing-settings-model';

type Draft = Record<string, unknown>;

const entries = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const isObject = (value: unknown): value is Draft => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `MIGRATIONS[v]` turns a version-v drawing state into version v+1 (SPEC §4). */
const MIGRATIONS: Record<number, (draft: Draft) => Draft> = {
  /**
   * v1 fib entries had only id, exchange, symbol and rect. They gain the fib defaults; their colour
   * is the drawing colour they were drawn with in v1 (there was one colour for everything).
   */
  1: (draft) => {
    const color = (DRAWING_COLORS as readonly unknown[]).includes(draft.color) ? draft.color : DEFAULT_DRAWING_COLOR;
    const fibSelections = entries(draft.fibSelections).map((fib) => (isObject(fib) ? { fibColor: color, ...FIB_DEFAULTS, ...fib } : fib));
    return { ...draft, fibSelections };
  },
  /** v2 could store a fib position before its rectangle was drawn; those cannot be shown. */
  2: (draft) => ({ ...draft, fibSelections: entries(draft.fibSelections).filter((fib) => isObject(fib) && isObject(fib.rect)) }),
};

/** Brings a stored drawing state of `version` (1…3) to the current version; throws for unknown versions. */
export function migrateDrawingSettings(state: object, version: number): DrawingSettings {
  if (!Number.isInteger(version) || version < 1 || version > DRAWING_SETTINGS_VERSION) {
    throw new Error(`Unknown drawing settings version ${version}`);
  }
  let draft: Draft = { ...(state as Draft) };
  for (let v = version; v < DRAWING_SETTINGS_VERSION; v++) draft = MIGRATIONS[v](draft);
  return sanitizeDrawingSettings(draft);
}
