/**
 * The four alert sounds (SPEC §3: alert-1 … alert-4), synthesised with WebAudio so the product ships
 * no audio files. Used by the preferences page (preview) and by the alerts panel when an alert
 * triggers: `playAlertSound(userSettings.alertSound)`.
 */

export const ALERT_SOUND_IDS = ['alert-1', 'alert-2', 'alert-3', 'alert-4'] as const;
export type AlertSoundId = (typeof ALERT_SOUND_IDS)[number];

export const ALERT_SOUND_LABELS: Readonly<Record<AlertSoundId, string>> = {
  'alert-1': 'Chime',
  'alert-2': 'Triple beep',
  'alert-3': 'Rising sweep',
  'alert-4': 'Bell',
};

/** The sounds in menu order, with their names (for pickers). */
export const ALERT_SOUNDS: readonly { id: AlertSoundId; label: string }[] = ALERT_SOUND_IDS.map((id) => ({ id, label: ALERT_SOUND_LABELS[id] }));

/** One tone: a waveform from `from` Hz (gliding to `to` Hz) starting `at` s after the sound starts. */
export interface Tone {
  at: number;
  duration: number;
  type: OscillatorType;
  from: number;
  to?: number;
  /** Peak gain, 0–1 (kept low: alerts must not startle). */
  gain: number;
}

export const ALERT_SOUND_RECIPES: Readonly<Record<AlertSoundId, readonly Tone[]>> = {
  'alert-1': [
    { at: 0, duration: 0.18, type: 'sine', from: 880, gain: 0.3 },
    { at: 0.16, duration: 0.32, type: 'sine', from: 1318.5, gain: 0.3 },
  ],
  'alert-2': [0, 0.16, 0.32].map((at) => ({ at, duration: 0.1, type: 'square' as const, from: 1000, gain: 0.12 })),
  'alert-3': [{ at: 0, duration: 0.5, type: 'triangle', from: 440, to: 1760, gain: 0.3 }],
  'alert-4': [
    { at: 0, duration: 1.2, type: 'sine', from: 660, gain: 0.3 },
    { at: 0, duration: 0.8, type: 'sine', from: 1320, gain: 0.12 },
    { at: 0, duration: 0.5, type: 'sine', from: 1980, gain: 0.06 },
  ],
};

/** Seconds a sound lasts. */
export const alertSoundDuration = (id: AlertSoundId) => Math.max(...ALERT_SOUND_RECIPES[id].map((t) => t.at + t.duration));

/** The WebAudio calls used, so tests can pass a recording fake. */
export type AudioContextLike = Pick<BaseAudioContext, 'currentTime' | 'destination' | 'createOscillator' | 'createGain'>;

/** Schedules `id` on `ctx` starting at `ctx.currentTime`; returns the end time. */
export function scheduleAlertSound(ctx: AudioContextLike, id: AlertSoundId): number {
  const start = ctx.currentTime;
  for (const tone of ALERT_SOUND_RECIPES[id]) {
    const t0 = start + tone.at;
    const t1 = t0 + tone.duration;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = tone.type;
    osc.frequency.setValueAtTime(tone.from, t0);
    if (tone.to) osc.frequency.exponentialRampToValueAtTime(tone.to, t1);
    // Short attack and an exponential release: no clicks at either end.
    gain.gain.setValueAtTime(0.0001, t0);
    gain.gain.exponentialRampToValueAtTime(tone.gain, t0 + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, t1);
    osc.connect(gain);
    gain.connect(ctx.destination);
    osc.start(t0);
    osc.stop(t1 + 0.02);
  }
  return start + alertSoundDuration(id);
}

let shared: AudioContext | null = null;

export const isAlertSoundId = (value: string): value is AlertSoundId => (ALERT_SOUND_IDS as readonly string[]).includes(value);

/**
 * Plays an alert sound (an unknown name plays alert-1, the default). Browsers start audio only after
 * a user gesture on the page; before one the context stays suspended and this resolves false
 * (nothing is played, nothing throws).
 */
export async function playAlertSound(name: AlertSoundId | string): Promise<boolean> {
  const id: AlertSoundId = isAlertSoundId(name) ? name : 'alert-1';
  const Ctor = globalThis.AudioContext ?? (globalThis as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctor) return false;
  shared ??= new Ctor();
  if (shared.state === 'suspended') await shared.resume().catch(() => undefined);
  if (shared.state !== 'running') return false;
  scheduleAlertSound(shared, id);
  return true;
}
