/**
 * The painted state of a canvas panel, for tests and tools: a `painted` getter on the canvas element
 * that builds its snapshot only when read (no DOM work, nothing made per frame). Playwright reads it
 * with `locator.evaluate((el) => el.painted)`, a jsdom test with `paintedOf(el)`.
 */
export function exposePainted<T>(el: HTMLElement, read: () => T, paints?: () => number): void {
  Object.defineProperty(el, 'painted', { configurable: true, enumerable: false, get: read });
  // How many paints so far (a number, nothing made): the order-flow bench counts paints per frame with it.
  if (paints) Object.defineProperty(el, 'paintCount', { configurable: true, enumerable: false, get: paints });
}

/** The snapshot `exposePainted` put on `el` (undefined when none). */
export function paintedOf<T>(el: Element): T | undefined {
  return (el as Element & { painted?: T }).painted;
}

/** True at most once every `ms`: an accessible summary follows the painted state a few times a second, not once a frame. */
export class Throttle {
  private last = Number.NEGATIVE_INFINITY;
  constructor(private readonly ms: number) {}
  due(now: number): boolean {
    if (now - this.last < this.ms) return false;
    this.last = now;
    return true;
  }
}
