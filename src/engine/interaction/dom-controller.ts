import type { ToolMachine } from './tool';

export type Region = 'pane' | 'price-axis' | 'time-axis';

/** What the DOM controller drives; the engine façade implements it. */
export interface ControllerHost {
  region(x: number, y: number): Region | null;
  tool(): ToolMachine;
  setCrosshair(p: { x: number; y: number } | null): void;
  panBy(dx: number, dy: number): void;
  /** factor > 1 zooms in (fewer bars), keeping the bar under x in place. */
  zoomAt(x: number, factor: number): void;
  scalePrice(factor: number): void;
  autoScalePrice(): void;
  resetTimeScale(): void;
  cancel(): void;
  deleteSelected(): void;
  paneWidth(): number;
  setCursor(cursor: string): void;
}

/** Wheel: pixels of deltaY per e-fold of zoom. */
const WHEEL_ZOOM_PX = 400;
const KEY_PAN_FRACTION = 0.1;
const KEY_ZOOM = 1.25;

/**
 * Turns DOM pointer, wheel and keyboard events into chart gestures and tool events:
 * - pane: the active tool (Select pans on empty space); wheel zooms at the cursor, horizontal
 *   wheel/trackpad pans, ctrl+wheel (trackpad pinch) zooms; two touches pinch-zoom;
 * - price axis: drag scales prices, double-click returns to auto-scale;
 * - time axis: drag zooms, double-click resets;
 * - keys: arrows pan, +/- zoom, Escape cancels the tool, Delete removes the selected drawing.
 */
export class DomController {
  private axisDrag: { region: 'price-axis' | 'time-axis'; lastX: number; lastY: number } | null = null;
  private readonly touches = new Map<number, { x: number; y: number }>();
  private pinchDistance = 0;
  private toolPointerId: number | null = null;
  private readonly listeners: Array<[EventTarget, string, EventListener, AddEventListenerOptions?]> = [];

  constructor(
    private readonly element: HTMLElement,
    private readonly surface: HTMLElement,
    private readonly host: ControllerHost,
  ) {
    if (element.tabIndex < 0) element.tabIndex = 0;
    element.style.outline = 'none';
    surface.style.touchAction = 'none';
    this.listen(surface, 'pointerdown', (e) => this.onDown(e as PointerEvent));
    this.listen(surface, 'pointermove', (e) => this.onMove(e as PointerEvent));
    this.listen(surface, 'pointerup', (e) => this.onUp(e as PointerEvent));
    this.listen(surface, 'pointercancel', (e) => this.onUp(e as PointerEvent));
    this.listen(surface, 'pointerleave', () => {
      if (this.toolPointerId === null && !this.axisDrag) this.host.setCrosshair(null);
    });
    this.listen(surface, 'dblclick', (e) => this.onDoubleClick(e as MouseEvent));
    this.listen(surface, 'wheel', (e) => this.onWheel(e as WheelEvent), { passive: false });
    this.listen(element, 'keydown', (e) => this.onKey(e as KeyboardEvent));
  }

  destroy(): void {
    for (const [target, type, fn, opts] of this.listeners) target.removeEventListener(type, fn, opts);
    this.listeners.length = 0;
  }

  private listen(target: EventTarget, type: string, fn: EventListener, opts?: AddEventListenerOptions): void {
    target.addEventListener(type, fn, opts);
    this.listeners.push([target, type, fn, opts]);
  }

  private local(e: MouseEvent): { x: number; y: number } {
    const r = this.surface.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  private onDown(e: PointerEvent): void {
    const p = this.local(e);
    if (e.pointerType === 'touch') {
      this.touches.set(e.pointerId, p);
      if (this.touches.size === 2) {
        // A second finger turns the gesture into a pinch: abandon whatever the first one started.
        this.host.tool().cancel();
        this.toolPointerId = null;
        this.pinchDistance = this.touchDistance();
        return;
      }
    }
    if (e.button !== 0 && e.pointerType === 'mouse') return;
    this.element.focus({ preventScroll: true });
    this.surface.setPointerCapture?.(e.pointerId);
    const region = this.host.region(p.x, p.y);
    if (region === 'price-axis' || region === 'time-axis') {
      this.axisDrag = { region, lastX: p.x, lastY: p.y };
      return;
    }
    if (region === 'pane') {
      this.toolPointerId = e.pointerId;
      this.host.setCrosshair(p);
      this.host.tool().pointerDown({ x: p.x, y: p.y, shift: e.shiftKey });
    }
  }

  private onMove(e: PointerEvent): void {
    const p = this.local(e);
    if (e.pointerType === 'touch' && this.touches.has(e.pointerId)) {
      this.touches.set(e.pointerId, p);
      if (this.touches.size === 2) {
        const d = this.touchDistance();
        if (this.pinchDistance > 0 && d > 0) this.host.zoomAt(this.touchMidX(), d / this.pinchDistance);
        this.pinchDistance = d;
        return;
      }
    }
    if (this.axisDrag) {
      if (this.axisDrag.region === 'price-axis') {
        // Dragging down compresses prices, up stretches them (TradingView's feel).
        this.host.scalePrice(Math.exp(-(p.y - this.axisDrag.lastY) / 200));
      } else {
        this.host.zoomAt(this.host.paneWidth(), Math.exp((p.x - this.axisDrag.lastX) / 200));
      }
      this.axisDrag.lastX = p.x;
      this.axisDrag.lastY = p.y;
      return;
    }
    const region = this.host.region(p.x, p.y);
    if (this.toolPointerId === null) {
      if (region === 'price-axis') this.host.setCursor('ns-resize');
      else if (region === 'time-axis') this.host.setCursor('ew-resize');
    }
    this.host.setCrosshair(region === 'pane' || this.toolPointerId !== null ? p : null);
    if (region === 'pane' || this.toolPointerId !== null) this.host.tool().pointerMove({ x: p.x, y: p.y, shift: e.shiftKey });
  }

  private onUp(e: PointerEvent): void {
    const p = this.local(e);
    if (e.pointerType === 'touch') {
      this.touches.delete(e.pointerId);
      if (this.touches.size > 0) return;
      this.pinchDistance = 0;
    }
    this.surface.releasePointerCapture?.(e.pointerId);
    if (this.axisDrag) {
      this.axisDrag = null;
      return;
    }
    if (this.toolPointerId === e.pointerId) {
      this.toolPointerId = null;
      this.host.tool().pointerUp({ x: p.x, y: p.y, shift: e.shiftKey });
    }
  }

  private onDoubleClick(e: MouseEvent): void {
    const p = this.local(e);
    const region = this.host.region(p.x, p.y);
    if (region === 'price-axis') this.host.autoScalePrice();
    else if (region === 'time-axis') this.host.resetTimeScale();
  }

  private onWheel(e: WheelEvent): void {
    e.preventDefault();
    const p = this.local(e);
    const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? this.host.paneWidth() : 1;
    const dx = e.deltaX * unit;
    const dy = e.deltaY * unit;
    if (e.shiftKey && dx === 0) {
      this.host.panBy(-dy, 0);
    } else if (!e.ctrlKey && Math.abs(dx) > Math.abs(dy)) {
      this.host.panBy(-dx, 0);
    } else if (dy !== 0) {
      const x = this.host.region(p.x, p.y) === 'pane' ? p.x : this.host.paneWidth();
      this.host.zoomAt(x, Math.exp(-dy / (e.ctrlKey ? WHEEL_ZOOM_PX / 4 : WHEEL_ZOOM_PX)));
    }
  }

  private onKey(e: KeyboardEvent): void {
    const w = this.host.paneWidth();
    switch (e.key) {
      case 'ArrowLeft':
        this.host.panBy(w * KEY_PAN_FRACTION, 0);
        break;
      case 'ArrowRight':
        this.host.panBy(-w * KEY_PAN_FRACTION, 0);
        break;
      case '+':
      case '=':
      case 'ArrowUp':
        this.host.zoomAt(w, KEY_ZOOM);
        break;
      case '-':
      case '_':
      case 'ArrowDown':
        this.host.zoomAt(w, 1 / KEY_ZOOM);
        break;
      case 'Escape':
        this.host.cancel();
        break;
      case 'Delete':
      case 'Backspace':
        this.host.deleteSelected();
        break;
      default:
        return;
    }
    e.preventDefault();
  }

  private touchDistance(): number {
    const [a, b] = [...this.touches.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  }

  private touchMidX(): number {
    const [a, b] = [...this.touches.values()];
    return a && b ? (a.x + b.x) / 2 : 0;
  }
}
