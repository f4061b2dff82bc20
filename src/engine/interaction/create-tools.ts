import type { Drawing, DrawingPoint } from '../drawings/records';
import { DRAG_THRESHOLD, type ToolHost, type ToolMachine, type ToolPointer } from './tool';

export type CreateLineState = 'idle' | 'pointing';

/** Horizontal line: a click places it at the (magnet-snapped) price, then Select takes over. */
export class CreateLineTool implements ToolMachine {
  readonly id = 'line' as const;
  state: CreateLineState = 'idle';

  constructor(private readonly host: ToolHost) {}

  get path(): string {
    return `line.${this.state}`;
  }

  pointerDown(_p: ToolPointer): void {
    this.state = 'pointing';
  }

  pointerMove(_p: ToolPointer): void {
    this.host.setCursor('crosshair');
  }

  pointerUp(p: ToolPointer): void {
    if (this.state !== 'pointing') return;
    this.state = 'idle';
    const point = this.host.pointAt(p.x, p.y);
    const d = this.host.newDrawing('line', point, point);
    this.host.commit(d, true);
    this.host.select(d.id);
    this.host.exitTool();
  }

  cancel(): boolean {
    const busy = this.state !== 'idle';
    this.state = 'idle';
    return busy;
  }
}

export type CreateTwoPointState = 'idle' | 'pointing' | 'dragging' | 'awaiting_second';

/**
 * Rectangle and Fib retracement: press at the first point and drag to the second, or click twice.
 *
 * idle ─down→ pointing ─move→ dragging ─up→ commit
 *                      └─up (no move)→ awaiting_second ─move→ (preview) ─up→ commit
 */
export class CreateTwoPointTool implements ToolMachine {
  state: CreateTwoPointState = 'idle';
  private p1: DrawingPoint | null = null;
  private start = { x: 0, y: 0 };
  private draft: Drawing | null = null;

  constructor(
    private readonly host: ToolHost,
    readonly id: 'rectangle' | 'fib-retracement',
  ) {}

  get path(): string {
    return `${this.id}.${this.state}`;
  }

  pointerDown(p: ToolPointer): void {
    if (this.state === 'idle') {
      this.p1 = this.host.pointAt(p.x, p.y);
      this.start = { x: p.x, y: p.y };
      this.state = 'pointing';
    }
  }

  pointerMove(p: ToolPointer): void {
    this.host.setCursor('crosshair');
    if (this.state === 'pointing' && Math.hypot(p.x - this.start.x, p.y - this.start.y) > DRAG_THRESHOLD) this.state = 'dragging';
    if (this.state === 'dragging' || this.state === 'awaiting_second') this.updateDraft(p);
  }

  pointerUp(p: ToolPointer): void {
    if (this.state === 'pointing') {
      this.state = 'awaiting_second';
      return;
    }
    if (this.state !== 'dragging' && this.state !== 'awaiting_second') return;
    if (Math.hypot(p.x - this.start.x, p.y - this.start.y) <= DRAG_THRESHOLD) return;
    this.updateDraft(p);
    const d = this.draft;
    this.host.preview(null);
    this.reset();
    if (!d) return;
    this.host.commit(d, true);
    this.host.select(d.id);
    this.host.exitTool();
  }

  cancel(): boolean {
    const busy = this.state !== 'idle';
    if (busy) this.host.preview(null);
    this.reset();
    return busy;
  }

  private updateDraft(p: ToolPointer): void {
    if (!this.p1) return;
    const p2 = this.host.pointAt(p.x, p.y);
    const fresh = this.host.newDrawing(this.id, this.p1, p2);
    // Keep one id for the whole gesture so the preview and the committed record match.
    this.draft = this.draft ? ({ ...fresh, id: this.draft.id } as Drawing) : fresh;
    this.host.preview(this.draft);
  }

  private reset(): void {
    this.state = 'idle';
    this.p1 = null;
    this.draft = null;
  }
}
