/**
 * Colours travel to the GPU as one packed 0xRRGGBBAA number per primitive; parsing happens when
 * a theme or a record changes, never per frame.
 */
export type Rgba = number;

const cache = new Map<string, Rgba>();

/** Parses `#rgb`, `#rrggbb`, `#rrggbbaa` and `rgb()/rgba()`; unknown strings become opaque magenta. */
export function parseColor(input: string): Rgba {
  const hit = cache.get(input);
  if (hit !== undefined) return hit;
  const s = input.trim().toLowerCase();
  let r = 255;
  let g = 0;
  let b = 255;
  let a = 255;
  if (s.startsWith('#')) {
    const hex = s.slice(1);
    if (hex.length === 3) {
      r = parseInt(hex[0] + hex[0], 16);
      g = parseInt(hex[1] + hex[1], 16);
      b = parseInt(hex[2] + hex[2], 16);
    } else if (hex.length === 6 || hex.length === 8) {
      r = parseInt(hex.slice(0, 2), 16);
      g = parseInt(hex.slice(2, 4), 16);
      b = parseInt(hex.slice(4, 6), 16);
      if (hex.length === 8) a = parseInt(hex.slice(6, 8), 16);
    }
  } else {
    const m = /^rgba?\(([^)]+)\)$/.exec(s);
    if (m) {
      const parts = m[1].split(',').map((p) => Number(p.trim()));
      [r, g, b] = parts;
      if (parts.length > 3) a = Math.round(parts[3] * 255);
    }
  }
  const packed = packRgba(r, g, b, a);
  cache.set(input, packed);
  return packed;
}

export function packRgba(r: number, g: number, b: number, a: number): Rgba {
  return (((r & 255) << 24) | ((g & 255) << 16) | ((b & 255) << 8) | (a & 255)) >>> 0;
}

/** Replaces the alpha channel (0..1). */
export function withAlpha(color: Rgba, alpha: number): Rgba {
  return ((color & 0xffffff00) | Math.round(Math.max(0, Math.min(1, alpha)) * 255)) >>> 0;
}

/** 0xRRGGBB for Pixi tints (text), dropping alpha. */
export function rgbOf(color: Rgba): number {
  return color >>> 8;
}

export function alphaOf(color: Rgba): number {
  return (color & 255) / 255;
}
