import { scaleUtc } from 'd3-scale';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const DAY = 86_400;

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** Time axis tick: year at a year start, month name at a month start, day number at midnight, else HH:mm. */
export function formatTimeTick(sec: number): { text: string; major: boolean } {
  const d = new Date(sec * 1000);
  const h = d.getUTCHours();
  const m = d.getUTCMinutes();
  const s = d.getUTCSeconds();
  if (h === 0 && m === 0 && s === 0) {
    if (d.getUTCDate() === 1) {
      if (d.getUTCMonth() === 0) return { text: String(d.getUTCFullYear()), major: true };
      return { text: MONTHS[d.getUTCMonth()], major: true };
    }
    return { text: String(d.getUTCDate()), major: true };
  }
  return { text: s ? `${pad2(h)}:${pad2(m)}:${pad2(s)}` : `${pad2(h)}:${pad2(m)}`, major: false };
}

/** Crosshair time label, detailed for the bar interval: "Tue 12 Mar '24 14:35" (intraday) or "Tue 12 Mar '24". */
export function formatCrosshairTime(sec: number, intervalSec: number): string {
  const d = new Date(sec * 1000);
  const date = `${DAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} '${pad2(d.getUTCFullYear() % 100)}`;
  if (intervalSec >= DAY) return date;
  return `${date} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`;
}

/** Countdown to the bar close: mm:ss, or h:mm:ss / Nd hh:mm for long bars. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / DAY);
  const h = Math.floor((s % DAY) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  if (d > 0) return `${d}d ${pad2(h)}:${pad2(m)}`;
  if (h > 0) return `${h}:${pad2(m)}:${pad2(ss)}`;
  return `${pad2(m)}:${pad2(ss)}`;
}

/**
 * Tick times (unix s, display-shifted) for a displayed time span: d3's calendar-aware UTC ticks
 * (1m…1y), never finer than the bar interval (no "12:30" on an hourly chart).
 */
export function timeTicks(t0: number, t1: number, widthPx: number, intervalSec: number, minSpacingPx = 96): number[] {
  if (!(t1 > t0)) return [];
  let count = Math.max(2, Math.floor(widthPx / minSpacingPx));
  const scale = scaleUtc().domain([new Date(t0 * 1000), new Date(t1 * 1000)]);
  for (let attempt = 0; attempt < 8; attempt++) {
    const ticks = scale.ticks(count).map((d) => d.getTime() / 1000);
    const step = ticks.length > 1 ? minStep(ticks) : Infinity;
    // 0.85: calendar months (28–31 days) still count as "one bar" on a monthly chart.
    if (step >= intervalSec * 0.85 || count <= 1) return ticks;
    count = Math.floor(count / 2);
  }
  return [];
}

function minStep(ticks: number[]): number {
  let m = Infinity;
  for (let i = 1; i < ticks.length; i++) m = Math.min(m, ticks[i] - ticks[i - 1]);
  return m;
}
