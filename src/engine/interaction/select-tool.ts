import { applyPartial, utilOf } from '../drawings/registry';
import type { Drawing } from '../drawings/records';
import type { DrawingHit } from '../drawings/hit-test';
import { DRAG_THRESHOLD, type ToolHost, type ToolMachine, type ToolPointer } from './tool';

export type SelectState =
  | 'idle'
  | 'pointing_drawing'
  | 'dragging_handle'
  | 'translating'
  | 'pointing_canvas'
  | 'panning'
  | 'pointing_line'
  | 'dragging_line'
  | 'pointing_line_close'
  | 'pointing_line_marker';

/**
 * The Select tool: hover, select, move and resize drawings, drag price lines, pan the chart.
 *
 * idle ─down on drawing→ pointing_drawing ─move→ dragging_handle | translating ─up→ idle (commit)
 * idle ─down on line→ pointing_line ─move→ dragging_line ─up→ idle (lineDragged)
 * idle ─down on a line's ✕→ pointing_line_close ─up on it→ idle (lineCloseClicked); moving off abandons it
 * idle ─down on an off-screen line's marker→ pointing_line_marker ─up on it→ idle (the line is brought into view)
 * idle ─down on empty→ pointing_canvas ─move→ panning ─up→ idle
 */
export class SelectTool implements ToolMachine {
  readonly id = 'default' as const;
  state: SelectState = 'idle';
  private start = { x: 0, y: 0 };
  private last = { x: 0, y: 0 };
  private hit: DrawingHit | null = null;
  private original: Drawing | null = null;
  private edited: Drawing | null = null;
  private lineId: string | null = null;
  private linePrice: number | null = null;

  constructor(private readonly host: ToolHost) {}

  get path(): string {
    return `select.${this.state}`;
  }

  pointerDown(p: ToolPointer): void {
    if (this.state !== 'idle') return;
    this.start = { x: p.x, y: p.y };
    this.last = { x: p.x, y: p.y };
    const target = this.host.target(p.x, p.y);
    if (target?.type === 'drawing') {
      this.hit = target.hit;
      this.original = this.host.drawing(target.hit.id) ?? null;
      this.host.select(target.hit.id);
      this.state = 'pointing_drawing';
    } else if (target?.type === 'line') {
      this.lineId = target.id;
      this.state = 'pointing_line';
    } else if (target?.type === 'line-close') {
      this.lineId = target.id;
      this.state = 'pointing_line_close';
    } else if (target?.type === 'line-marker') {
      this.lineId = target.id;
      this.state = 'pointing_line_marker';
    } else {
      this.host.select(null);
      this.state = 'pointing_canvas';
    }
  }

  pointerMove(p: ToolPointer): void {
    const moved = Math.hypot(p.x - this.start.x, p.y - this.start.y) > DRAG_THRESHOLD;
    switch (this.state) {
      case 'idle': {
        const target = this.host.target(p.x, p.y);
        this.host.hover(target);
        this.host.setCursor(
          target?.type === 'line-close' || target?.type === 'line-marker' ? 'pointer' : target?.type === 'line' ? 'ns-resize' : target?.type === 'drawing' ? (target.hit.part === 'handle' ? 'move' : 'pointer') : 'crosshair',
        );
        return;
      }
      case 'pointing_drawing':
        if (!moved || !this.hit || !this.original) return;
        this.state = this.hit.part === 'handle' ? 'dragging_handle' : 'translating';
        this.host.setCursor('move');
        this.pointerMove(p);
        return;
      case 'dragging_handle': {
        if (!this.original || !this.hit?.handleId) return;
        const util = utilOf(this.original);
        this.edited = applyPartial(this.original, util.dragHandle(this.original, this.hit.handleId, this.host.pointAt(p.x, p.y)));
        this.host.preview(this.edited);
        return;
      }
      case 'translating': {
        if (!this.original) return;
        const util = utilOf(this.original);
        this.edited = applyPartial(this.original, util.translate(this.original, p.x - this.start.x, p.y - this.start.y, this.host.ctx()));
        this.host.preview(this.edited);
        return;
      }
      case 'pointing_canvas':
        if (!moved) return;
        this.state = 'panning';
        this.host.setCursor('grabbing');
        this.pointerMove(p);
        return;
      case 'panning':
        this.host.pan(p.x - this.last.x, p.y - this.last.y);
        this.last = { x: p.x, y: p.y };
        return;
      case 'pointing_line':
        if (!moved) return;
        this.state = 'dragging_line';
        this.host.setCursor('ns-resize');
        this.pointerMove(p);
        return;
      case 'pointing_line_close':
      case 'pointing_line_marker':
        return;
      case 'dragging_line':
        if (!this.lineId) return;
        this.linePrice = this.host.pointAt(p.x, p.y).price;
        this.host.previewLine(this.lineId, this.linePrice);
        return;
    }
  }

  pointerUp(p: ToolPointer): void {
    if (this.state === 'pointing_line_close' && this.lineId) {
      const target = this.host.target(p.x, p.y);
      if (target?.type === 'line-close' && target.id === this.lineId) this.host.closeLine(this.lineId);
    } else if (this.state === 'pointing_line_marker' && this.lineId) {
      const target = this.host.target(p.x, p.y);
      if (target?.type === 'line-marker' && target.id === this.lineId) this.host.revealLine(this.lineId);
    } else if ((this.state === 'dragging_handle' || this.state === 'translating') && this.edited && this.original) {
      this.host.preview(null);
      if (JSON.stringify(this.edited) !== JSON.stringify(this.original)) this.host.commit(this.edited, false);
    } else if (this.state === 'dragging_line' && this.lineId && this.linePrice !== null) {
      this.host.previewLine(this.lineId, null);
      if (this.linePrice !== this.host.linePrice(this.lineId)) this.host.commitLine(this.lineId, this.linePrice);
    }
    this.reset();
  }

  cancel(): boolean {
    if (this.state === 'dragging_handle' || this.state === 'translating') this.host.preview(null);
    if (this.state === 'dragging_line' && this.lineId) this.host.previewLine(this.lineId, null);
    if (this.state !== 'idle') {
      this.reset();
      return true;
    }
    if (this.host.selectedId() !== null) {
      this.host.select(null);
      return true;
    }
    return false;
  }

  private reset(): void {
    this.state = 'idle';
    this.hit = null;
    this.original = null;
    this.edited = null;
    this.lineId = null;
    this.linePrice = null;
    this.host.setCursor('crosshair');
  }
}
