import { describe, expect, it } from 'vitest';
import { NAMED_LAYOUTS_MAX, patchServerSettingsBodySchema, serverSettingsSchema, SERVER_SETTINGS_DEFAULTS } from '../../api/contracts/settings';

const layout = (extra: Record<string, unknown> = {}) => ({ version: 1, savedAt: 1_700_000_000_000, model: { layout: { type: 'row', children: [] }, ...extra } });

describe('workstation layouts in the server settings', () => {
  it('default to no layout and no named layouts', () => {
    expect(serverSettingsSchema.parse(SERVER_SETTINGS_DEFAULTS)).toMatchObject({ layout: null, namedLayouts: {} });
  });

  it('accept flexlayout JSON as-is, with a version and a save time', () => {
    const body = { layout: layout({ global: { tabEnablePopout: true } }), namedLayouts: { Scalping: layout() } };
    expect(patchServerSettingsBodySchema.parse(body)).toEqual(body);
    expect(patchServerSettingsBodySchema.parse({ layout: null })).toEqual({ layout: null });
  });

  it('refuse a layout over the size cap, a missing version, too many or badly named layouts', () => {
    const big = layout({ blob: 'x'.repeat(200_001) });
    expect(patchServerSettingsBodySchema.safeParse({ layout: big }).success).toBe(false);
    expect(patchServerSettingsBodySchema.safeParse({ layout: { savedAt: 1, model: {} } }).success).toBe(false);
    const many = Object.fromEntries(Array.from({ length: NAMED_LAYOUTS_MAX + 1 }, (_, i) => [`L${i}`, layout()]));
    expect(patchServerSettingsBodySchema.safeParse({ namedLayouts: many }).success).toBe(false);
    expect(patchServerSettingsBodySchema.safeParse({ namedLayouts: { ['x'.repeat(41)]: layout() } }).success).toBe(false);
    expect(patchServerSettingsBodySchema.safeParse({ namedLayouts: { '': layout() } }).success).toBe(false);
  });

  it('refuse named layouts that together exceed their cap', () => {
    const chunk = 'x'.repeat(150_000);
    const named = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`L${i}`, layout({ blob: chunk })]));
    expect(patchServerSettingsBodySchema.safeParse({ namedLayouts: named }).success).toBe(false);
  });
});
