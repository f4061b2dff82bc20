import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StoredLayout } from '../../api/contracts/settings';
import { configureStateStorage } from '../../state/storage';
import { MemoryStorage } from '../../state/test-storage';
import { readLocalLayout } from '../../state/workstation-layout-cache';
import { LayoutSaver, type LayoutSaveStatus } from './layout-saver';

const layout = (n: number): StoredLayout => ({ version: 1, savedAt: n, model: { layout: { type: 'row', n } } });

interface Deferred {
  layout: StoredLayout;
  resolve: () => void;
  reject: (error: Error) => void;
}

let storage: MemoryStorage;
let sent: Deferred[];
let statuses: LayoutSaveStatus[];
let saver: LayoutSaver;

const send = (l: StoredLayout) =>
  new Promise<void>((resolve, reject) => {
    sent.push({ layout: l, resolve, reject });
  });
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
  storage = new MemoryStorage();
  configureStateStorage(storage);
  sent = [];
  statuses = [];
  saver = new LayoutSaver({ cacheName: 'wl', send, serverDelayMs: 1000, onStatus: (s) => statuses.push(s) });
});
afterEach(() => {
  vi.useRealTimers();
  configureStateStorage(undefined);
});

describe('LayoutSaver', () => {
  it('stores every change locally at once and sends the last one after a quiet second', async () => {
    saver.change(layout(1));
    expect(readLocalLayout('wl')).toEqual({ layout: layout(1), synced: false });
    await vi.advanceTimersByTimeAsync(600);
    saver.change(layout(2));
    await vi.advanceTimersByTimeAsync(999);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent.map((s) => s.layout)).toEqual([layout(2)]);
    expect(saver.getStatus()).toBe('saving');
    sent[0].resolve();
    await settle();
    expect(saver.getStatus()).toBe('saved');
    expect(readLocalLayout('wl')).toEqual({ layout: layout(2), synced: true });
    expect(statuses).toEqual(['pending', 'saving', 'saved']);
  });

  it('keeps a failed change locally, unsynced, and sends it again with the next change', async () => {
    saver.change(layout(1));
    await vi.advanceTimersByTimeAsync(1000);
    sent[0].reject(new Error('500'));
    await settle();
    expect(saver.getStatus()).toBe('error');
    expect(readLocalLayout('wl')).toEqual({ layout: layout(1), synced: false });
    saver.change(layout(2));
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent.map((s) => s.layout.savedAt)).toEqual([1, 2]);
    sent[1].resolve();
    await settle();
    expect(readLocalLayout('wl')?.synced).toBe(true);
  });

  it('never overlaps saves: a change made during a save is sent after it, in order', async () => {
    saver.change(layout(1));
    await vi.advanceTimersByTimeAsync(1000);
    saver.change(layout(2));
    await vi.advanceTimersByTimeAsync(1000); // timer fires while save 1 is still running
    expect(sent).toHaveLength(1);
    sent[0].resolve();
    await settle();
    expect(sent.map((s) => s.layout.savedAt)).toEqual([1, 2]);
    expect(readLocalLayout('wl')).toEqual({ layout: layout(2), synced: false }); // 1 confirmed, 2 not yet
    sent[1].resolve();
    await settle();
    expect(readLocalLayout('wl')).toEqual({ layout: layout(2), synced: true });
    expect(sent).toHaveLength(2);
  });

  it('flush sends at once; nothing is sent when nothing changed', async () => {
    await saver.flush();
    expect(sent).toHaveLength(0);
    saver.change(layout(1));
    void saver.flush();
    await settle();
    expect(sent).toHaveLength(1);
    sent[0].resolve();
    await settle();
    await vi.advanceTimersByTimeAsync(5000);
    expect(sent).toHaveLength(1);
  });

  it('dispose sends the pending change and ignores later ones', async () => {
    saver.change(layout(1));
    saver.dispose();
    await settle();
    expect(sent.map((s) => s.layout.savedAt)).toEqual([1]);
    saver.change(layout(2));
    await vi.advanceTimersByTimeAsync(5000);
    expect(sent).toHaveLength(1);
  });

  it('dispose during a save still sends the newer pending change after it', async () => {
    saver.change(layout(1));
    await vi.advanceTimersByTimeAsync(1000);
    saver.change(layout(2));
    saver.dispose();
    sent[0].resolve();
    await settle();
    expect(sent.map((s) => s.layout.savedAt)).toEqual([1, 2]);
  });
});
