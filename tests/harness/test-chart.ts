/**
 * A test chart without DOM or GPU: the engine's ChartController with a sized model, generated
 * candles and the scene built as on screen (so scales are the real ones). Unit tests script
 * pointer events against it and read the emitted events.
 */
import { ChartController } from '../../src/engine/chart-controller';
import { InvalidationLevel } from '../../src/engine/core/invalidate-mask';
import type { Drawing } from '../../src/engine/drawings/records';
import { buildScene, Scene } from '../../src/engine/model/scene';
import { resolveTheme } from '../../src/engine/model/theme';
import { estimateTextWidth } from '../../src/engine/model/view/primitive-list';
import type { ChartEvents, ChartOptions } from '../../src/engine/types';
import { generateCandles, type GeneratedCandle } from './ohlcv';

export interface TestChart {
  controller: ChartController;
  candles: GeneratedCandle[];
  scene: Scene;
  events: Array<{ type: keyof ChartEvents; payload: unknown }>;
  paint(): void;
  /** Builds the scene at one invalidation level (1 cursor, 2 light, 3 full). */
  paintLevel(level: 1 | 2 | 3): void;
  down(x: number, y: number): void;
  move(x: number, y: number): void;
  up(x: number, y: number): void;
  /** down, moves in steps, up. */
  drag(x1: number, y1: number, x2: number, y2: number, steps?: number): void;
  click(x: number, y: number): void;
  state(): string;
  committed(): Array<ChartEvents['drawingCommitted']>;
}

export function createTestChart(opts: { bars?: number; width?: number; height?: number; options?: ChartOptions; drawings?: Drawing[] } = {}): TestChart {
  let n = 0;
  const options: ChartOptions = {
    instrument: { tickSize: 0.1, precision: 1 },
    createId: () => `new-${++n}`,
    ...opts.options,
  };
  const controller = new ChartController(options, () => {});
  const scene = new Scene();
  const theme = resolveTheme(undefined);
  const events: TestChart['events'] = [];
  for (const type of ['needHistory', 'drawingCommitted', 'drawingDeleted', 'lineDragged', 'lineCloseClicked', 'toolChanged', 'selectionChanged'] as const) {
    controller.events.on(type, (payload) => events.push({ type, payload }));
  }
  const candles = generateCandles({ count: opts.bars ?? 300, seed: 1 });
  controller.setSize(opts.width ?? 800, opts.height ?? 500, 1);
  controller.setCandles(candles);
  if (opts.drawings) controller.setDrawings(opts.drawings);
  const now = candles.length ? candles[candles.length - 1].time * 1000 : 0;
  const paintLevel = (level: 1 | 2 | 3) =>
    buildScene(controller.model, scene, level as InvalidationLevel, { theme, measure: estimateTextWidth(11), now, timeOffsetSeconds: 0, emptyText: options.emptyText });
  const paint = () => paintLevel(InvalidationLevel.full);
  paint();
  const t: TestChart = {
    controller,
    candles,
    scene,
    events,
    paint,
    paintLevel,
    down: (x, y) => controller.tool().pointerDown({ x, y }),
    move: (x, y) => controller.tool().pointerMove({ x, y }),
    up: (x, y) => controller.tool().pointerUp({ x, y }),
    drag(x1, y1, x2, y2, steps = 5) {
      t.down(x1, y1);
      for (let i = 1; i <= steps; i++) t.move(x1 + ((x2 - x1) * i) / steps, y1 + ((y2 - y1) * i) / steps);
      t.up(x2, y2);
    },
    click(x, y) {
      t.down(x, y);
      t.up(x, y);
    },
    state: () => controller.getInteractionState(),
    committed: () => events.filter((e) => e.type === 'drawingCommitted').map((e) => e.payload as ChartEvents['drawingCommitted']),
  };
  return t;
}
