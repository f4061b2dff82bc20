import { describe, expect, it } from 'vitest';
import { ALERT_SOUND_IDS, alertSoundDuration, scheduleAlertSound, type AudioContextLike } from './alert-sounds';

/** Records what a sound schedules on a WebAudio context. */
function recordingContext(currentTime = 10) {
  const events: { kind: string; value: number; time: number }[] = [];
  const param = (kind: string) => ({
    setValueAtTime: (value: number, time: number) => events.push({ kind: `${kind}.set`, value, time }),
    exponentialRampToValueAtTime: (value: number, time: number) => events.push({ kind: `${kind}.ramp`, value, time }),
  });
  const ctx = {
    currentTime,
    destination: {},
    createOscillator: () => ({
      type: 'sine',
      frequency: param('freq'),
      connect: () => undefined,
      start: (time: number) => events.push({ kind: 'start', value: 0, time }),
      stop: (time: number) => events.push({ kind: 'stop', value: 0, time }),
    }),
    createGain: () => ({ gain: param('gain'), connect: () => undefined }),
  };
  return { ctx: ctx as unknown as AudioContextLike, events };
}

describe('alert sounds', () => {
  it('schedules every sound from the current time, silent at both ends, and all four differ', () => {
    const fingerprints = new Set<string>();
    for (const id of ALERT_SOUND_IDS) {
      const { ctx, events } = recordingContext();
      const end = scheduleAlertSound(ctx, id);
      expect(end).toBeCloseTo(10 + alertSoundDuration(id));
      expect(events.filter((e) => e.kind === 'start').every((e) => e.time >= 10)).toBe(true);
      expect(Math.max(...events.filter((e) => e.kind === 'stop').map((e) => e.time))).toBeLessThanOrEqual(end + 0.05);
      const gains = events.filter((e) => e.kind.startsWith('gain'));
      expect(gains[0].value).toBeLessThan(0.001);
      expect(gains[gains.length - 1].value).toBeLessThan(0.001);
      expect(Math.max(...gains.map((g) => g.value))).toBeLessThanOrEqual(0.3);
      fingerprints.add(JSON.stringify(events.filter((e) => e.kind.startsWith('freq') || e.kind === 'start')));
    }
    expect(fingerprints.size).toBe(4);
  });
});
