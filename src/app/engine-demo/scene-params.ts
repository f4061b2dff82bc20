/**
 * Query parameters of the demo page. Any `scene` parameter makes the page deterministic for
 * screenshot tests: fixed seed, fixed clock, no live ticks, no animation.
 *
 * scene=candles|empty|lines · seed · bars · interval (s) · tick · precision · dpr · w · h (px) ·
 * range=from,to · crosshair=x,y · draw=line,rectangle,fib · select=line|rectangle|fib ·
 * tool=line|rectangle|fib-retracement · magnet=0 · lines=1|offscreen|stacked · indicators=sma,ema,vwap,bb · history=page|hold|none ·
 * latency (ms a history page takes; default 0 in scenes — answered at once — else 400) · now (ms) · live=1 · bare=1
 */
export interface DemoParams {
  scene: string | null;
  deterministic: boolean;
  seed: number;
  bars: number;
  interval: number;
  tick: number;
  precision: number;
  dpr: number | undefined;
  width: number | null;
  height: number | null;
  range: { from: number; to: number } | null;
  crosshair: { x: number; y: number } | null;
  draw: string[];
  select: string | null;
  tool: string | null;
  magnet: boolean;
  lines: boolean;
  /** Which preset price lines: the spaced set (`lines=1`), lines beyond the visible prices, or lines a tick apart. */
  lineSet: 'preset' | 'offscreen' | 'stacked';
  indicators: string[];
  history: 'page' | 'hold' | 'none';
  latency: number;
  now: number | null;
  live: boolean;
  bare: boolean;
}

function num(v: string | null, fallback: number): number {
  const n = v === null ? NaN : Number(v);
  return Number.isFinite(n) ? n : fallback;
}

function pair(v: string | null): [number, number] | null {
  if (!v) return null;
  const [a, b] = v.split(',').map(Number);
  return Number.isFinite(a) && Number.isFinite(b) ? [a, b] : null;
}

export function readParams(search: string): DemoParams {
  // The last value of a repeated parameter wins: scene tests append their own to a shared base
  // (`bars=300&…&bars=100000`), and the first-wins URLSearchParams.get once silently kept 300 bars.
  const last = new Map<string, string>();
  for (const [key, value] of new URLSearchParams(search)) last.set(key, value);
  const q = new URLSearchParams([...last]);
  const scene = q.get('scene');
  const deterministic = scene !== null;
  const range = pair(q.get('range'));
  const crosshair = pair(q.get('crosshair'));
  const history = q.get('history');
  const lineSet = q.get('lines');
  return {
    scene,
    deterministic,
    seed: num(q.get('seed'), 1),
    bars: Math.max(0, Math.min(2_000_000, Math.floor(num(q.get('bars'), deterministic ? 300 : 5000)))),
    interval: Math.max(1, num(q.get('interval'), 60)),
    tick: num(q.get('tick'), 0.1),
    precision: num(q.get('precision'), 1),
    dpr: q.has('dpr') ? num(q.get('dpr'), 1) : undefined,
    width: q.has('w') ? num(q.get('w'), 800) : null,
    height: q.has('h') ? num(q.get('h'), 500) : null,
    range: range ? { from: range[0], to: range[1] } : null,
    crosshair: crosshair ? { x: crosshair[0], y: crosshair[1] } : null,
    draw: (q.get('draw') ?? '').split(',').filter(Boolean),
    select: q.get('select'),
    tool: q.get('tool'),
    magnet: q.get('magnet') !== '0',
    lines: q.get('lines') === '1' || lineSet === 'offscreen' || lineSet === 'stacked' || scene === 'lines',
    lineSet: lineSet === 'offscreen' || lineSet === 'stacked' ? lineSet : 'preset',
    indicators: (q.get('indicators') ?? '').split(',').filter(Boolean),
    history: history === 'hold' || history === 'none' ? history : 'page',
    latency: Math.max(0, num(q.get('latency'), deterministic ? 0 : 400)),
    now: q.has('now') ? num(q.get('now'), 0) : null,
    live: q.has('live') ? q.get('live') === '1' : !deterministic,
    bare: q.get('bare') === '1',
  };
}
