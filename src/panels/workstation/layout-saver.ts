import type { StoredLayout } from '../../api/contracts/settings';
import { writeLocalLayout } from '../../state/workstation-layout-cache';

/** `saved`: the server has the latest layout; `pending`: waiting for the debounce; `error`: the last save failed. */
export type LayoutSaveStatus = 'saved' | 'pending' | 'saving' | 'error';

export interface LayoutSaverOptions {
  /** Local storage name of this user's layout copy. */
  cacheName: string;
  /** Sends the layout to the server (`PATCH /v1/users/settings`); rejects on failure. */
  send: (layout: StoredLayout) => Promise<unknown>;
  /** Quiet time before a server save (SPEC §9 lists no value; 1 s keeps a drag from sending dozens). */
  serverDelayMs?: number;
  onStatus?: (status: LayoutSaveStatus) => void;
}

/**
 * Saves the workstation layout twice: at once to this device (so a reload never loses a change) and,
 * debounced, to the server (so it follows the user). Server saves never overlap — a slow save cannot
 * land after a newer one — and a failed save leaves the local copy marked unsynced, so the change is
 * retried with the next change or sent on the next load. Nothing is lost on failure.
 */
export class LayoutSaver {
  private latest: StoredLayout | null = null;
  private sentLatest = true;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private inFlight: Promise<void> | null = null;
  private status: LayoutSaveStatus = 'saved';
  private disposed = false;
  private readonly delay: number;

  constructor(private readonly options: LayoutSaverOptions) {
    this.delay = options.serverDelayMs ?? 1000;
  }

  getStatus(): LayoutSaveStatus {
    return this.status;
  }

  /** A new layout: stored locally now, sent to the server after the quiet time. */
  change(layout: StoredLayout): void {
    if (this.disposed) return;
    this.latest = layout;
    this.sentLatest = false;
    writeLocalLayout(this.options.cacheName, { layout, synced: false });
    this.setStatus(this.inFlight ? 'saving' : 'pending');
    this.schedule(this.delay);
  }

  /** Sends a pending change now (leaving the workstation, "save" actions that must not wait). */
  flush(): Promise<void> {
    this.clearTimer();
    return this.run();
  }

  /** Stops timers; a pending change is sent once more (navigation away must not drop it). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    void this.flush();
  }

  private schedule(ms: number): void {
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run();
    }, ms);
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private async run(): Promise<void> {
    if (this.inFlight) {
      await this.inFlight;
      // the change that arrived meanwhile is sent by the loop below, or by its own timer
      if (this.timer !== null) return;
    }
    if (this.sentLatest || this.latest === null) return;
    const layout = this.latest;
    this.sentLatest = true;
    this.setStatus('saving');
    this.inFlight = this.options
      .send(layout)
      .then(
        () => {
          if (this.latest === layout) {
            writeLocalLayout(this.options.cacheName, { layout, synced: true });
            this.setStatus('saved');
          }
        },
        () => {
          if (this.latest === layout) this.sentLatest = false;
          this.setStatus('error');
        },
      )
      .finally(() => {
        this.inFlight = null;
      });
    await this.inFlight;
    if (!this.sentLatest && this.latest !== layout && this.timer === null) await this.run();
  }

  private setStatus(status: LayoutSaveStatus): void {
    if (status === this.status) return;
    this.status = status;
    this.options.onStatus?.(status);
  }
}
