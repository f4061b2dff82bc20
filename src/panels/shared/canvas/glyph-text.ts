/** One-character strings for Latin-1 (made once): numbers are drawn glyph by glyph, without a string per number. */
const CHARS: readonly string[] = Array.from({ length: 256 }, (_, c) => String.fromCharCode(c));
const ZERO = 48;
const DOT = 46;
const COLON = 58;
const DASH = 45;
const HOUR_MS = 3_600_000;

/** The canvas calls a `GlyphText` makes (a real 2D context, or a test's recording fake). */
export type TextContext = Pick<CanvasRenderingContext2D, 'fillText' | 'measureText' | 'font'>;

/**
 * A number's text built into a reused byte buffer and drawn one glyph at a time (digits at one
 * advance: tabular figures): painting a size, a cumulative total or a time allocates nothing. Texts the
 * feed already holds as strings (the exchange's prices) are drawn with `fillText` as they are.
 */
export class GlyphText {
  private readonly buf = new Uint8Array(48);
  private len = 0;
  private widths: Float64Array = new Float64Array(256);
  private font = '';
  /** Glyph widths per font measured (a regular and a bold one: switching between them measures nothing). */
  private readonly fonts = new Map<string, Float64Array>();
  /** The local time zone's offset (ms) and the hour it was read for (re-read each hour: DST). */
  private tzHour = Number.NaN;
  private tzOffset = 0;

  /** Uses `font` (the context's, just set): its glyphs are measured once. */
  measure(ctx: TextContext, font: string): void {
    if (font === this.font) return;
    this.font = font;
    const known = this.fonts.get(font);
    if (known) {
      this.widths = known;
      return;
    }
    this.widths = new Float64Array(256);
    this.fonts.set(font, this.widths);
    let digit = 0;
    for (let c = 32; c < 256; c++) if (c < 127 || c > 160) this.widths[c] = Math.round(ctx.measureText(CHARS[c]!).width);
    for (let c = ZERO; c < ZERO + 10; c++) digit = Math.max(digit, this.widths[c]!);
    for (let c = ZERO; c < ZERO + 10; c++) this.widths[c] = digit;
  }

  clear(): this {
    this.len = 0;
    return this;
  }

  char(code: number): this {
    if (this.len < this.buf.length) this.buf[this.len++] = code;
    return this;
  }

  /** A constant string's characters ("Spread ", " · Mid ", "×"; beyond Latin-1 they become "?"). */
  text(s: string): this {
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      this.char(c < 256 ? c : 63);
    }
    return this;
  }

  /** A non-negative integer, at least `minDigits` digits (zero-padded). */
  int(n: number, minDigits = 1): this {
    let v = Math.floor(Math.abs(n));
    let digits = 1;
    for (let p = 10; p <= v && digits < 22; p *= 10) digits++;
    digits = Math.max(digits, minDigits);
    if (this.len + digits > this.buf.length) return this;
    for (let i = this.len + digits - 1; i >= this.len; i--) {
      this.buf[i] = ZERO + (v % 10);
      v = Math.floor(v / 10);
    }
    this.len += digits;
    return this;
  }

  /** `value` with `decimals` digits after the point (as `toFixed`, for drawing). */
  fixed(value: number, decimals: number): this {
    if (!Number.isFinite(value)) return this.char(DASH);
    const scale = 10 ** decimals;
    const scaled = Math.round(Math.abs(value) * scale);
    if (value < 0 && scaled > 0) this.char(DASH);
    const whole = Math.floor(scaled / scale);
    this.int(whole);
    if (decimals > 0) this.char(DOT).int(scaled - whole * scale, decimals);
    return this;
  }

  /** `fixed` without trailing zeros (nor a trailing point). */
  trimmed(value: number, decimals: number): this {
    const start = this.len;
    this.fixed(value, decimals);
    let dot = -1;
    for (let i = start; i < this.len; i++) if (this.buf[i] === DOT) dot = i;
    if (dot < 0) return this;
    while (this.len > dot + 1 && this.buf[this.len - 1] === ZERO) this.len--;
    if (this.len === dot + 1) this.len--;
    return this;
  }

  /** A size, compact ("1.25", "12.4k", "1.5M"; four significant digits below 100); nothing for ≤ 0. */
  compact(s: number): this {
    if (!(s > 0)) return this;
    if (s >= 1e6) return this.trimmed(s / 1e6, 2).char(77);
    if (s >= 1e4) return this.trimmed(s / 1e3, 1).char(107);
    if (s >= 100) return this.trimmed(s, 1);
    const intDigits = Math.floor(Math.log10(s)) + 1;
    return this.trimmed(s, Math.min(20, Math.max(0, 4 - intDigits)));
  }

  /** `HH:MM:SS.mmm` of an epoch time in the browser's time zone. */
  time(ms: number): this {
    const hour = Math.floor(ms / HOUR_MS);
    if (hour !== this.tzHour) {
      this.tzHour = hour;
      this.tzOffset = -new Date(ms).getTimezoneOffset() * 60_000;
    }
    const local = ms + this.tzOffset;
    const day = ((local % 86_400_000) + 86_400_000) % 86_400_000;
    return this.int(Math.floor(day / HOUR_MS), 2)
      .char(COLON)
      .int(Math.floor(day / 60_000) % 60, 2)
      .char(COLON)
      .int(Math.floor(day / 1000) % 60, 2)
      .char(DOT)
      .int(day % 1000, 3);
  }

  /** The text's width in the measured font. */
  width(): number {
    let w = 0;
    for (let i = 0; i < this.len; i++) w += this.widths[this.buf[i]!]!;
    return w;
  }

  /**
   * Draws the text starting at `x` (the context's `textAlign` must be `left`); returns its right edge.
   * Glyphs go to whole pixels (advances are rounded when measured): a fractional coordinate handed to
   * the canvas would be boxed — an allocation per glyph.
   */
  drawLeft(ctx: TextContext, x: number, y: number): number {
    x = Math.round(x);
    y = Math.round(y);
    for (let i = 0; i < this.len; i++) {
      const c = this.buf[i]!;
      if (c !== 32) ctx.fillText(CHARS[c]!, x, y);
      x += this.widths[c]!;
    }
    return x;
  }

  /** Draws the text ending at `x`. */
  drawRight(ctx: TextContext, x: number, y: number): void {
    this.drawLeft(ctx, x - this.width(), y);
  }

  /** The text as a string (tests and the occasional accessible summary only: this allocates). */
  toString(): string {
    let s = '';
    for (let i = 0; i < this.len; i++) s += CHARS[this.buf[i]!];
    return s;
  }
}
