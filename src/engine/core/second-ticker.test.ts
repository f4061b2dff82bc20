import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onEverySecond } from './second-ticker';

describe('onEverySecond', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:00.400Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('fires every listener together just after each whole second, and stops when none is left', () => {
    const at: number[] = [];
    const a = vi.fn(() => at.push(Date.now() % 1000));
    const b = vi.fn();
    const offA = onEverySecond(a);
    vi.advanceTimersByTime(300); // 00.700
    const offB = onEverySecond(b); // joins the same ticks, not its own phase
    vi.advanceTimersByTime(299); // 00.999
    expect(a).not.toHaveBeenCalled();
    vi.advanceTimersByTime(10); // 01.009
    expect(a).toHaveBeenCalledTimes(1);
    expect(b).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2000);
    expect(a).toHaveBeenCalledTimes(3);
    expect(b).toHaveBeenCalledTimes(3);
    expect(at.every((ms) => ms < 20)).toBe(true);
    offA();
    vi.advanceTimersByTime(1000);
    expect(a).toHaveBeenCalledTimes(3);
    expect(b).toHaveBeenCalledTimes(4);
    offB();
    expect(vi.getTimerCount()).toBe(0);
  });
});
