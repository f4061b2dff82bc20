import { describe, expect, it } from 'vitest';
import { MAX_STRINGS, RecordingContext, replay, type ReplayTarget } from './draw-ops';
import { FakeContext2D } from './fake-context';
import { GlyphText } from './glyph-text';

/** Draws the same things on any context (what the painters do: colours, alpha, glyphs, the exchange's strings, a self-copy). */
function draw(ctx: RecordingContext | FakeContext2D, canvas: unknown, glyphs: GlyphText, price: string) {
  ctx.setTransform(2, 0, 0, 2, 0, 0);
  ctx.font = '12px sans-serif';
  glyphs.measure(ctx as never, '12px sans-serif');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, 100, 17);
  ctx.globalAlpha = 0.35;
  ctx.fillStyle = 'rgba(18,184,134,0.1)';
  ctx.fillRect(60, 1, 40, 15);
  ctx.globalAlpha = 1;
  ctx.fillStyle = '#12b886';
  ctx.fillText(price, 4, 8);
  glyphs.clear().fixed(1.25, 3).drawRight(ctx as never, 90, 8);
  ctx.globalCompositeOperation = 'copy';
  ctx.drawImage(canvas as never, 0, 0, 200, 100, 0, 17, 100, 50);
  ctx.globalCompositeOperation = 'source-over';
}

const target = (fake: FakeContext2D) => () => fake as unknown as ReplayTarget;

describe('a recorded canvas', () => {
  it('replays to exactly the calls the painter made on a context of its own', () => {
    const canvas = { width: 0, height: 0 } as unknown as HTMLCanvasElement;
    const direct = new FakeContext2D();
    draw(direct, canvas, new GlyphText(), '67391.5');

    let drawn = 0;
    const recording = new RecordingContext(canvas, new FakeContext2D() as never, () => drawn++);
    draw(recording, canvas, new GlyphText(), '67391.5');
    expect(drawn).toBe(1);
    const frame = recording.take(new Float64Array(8192));
    expect(recording.empty).toBe(true);

    const replayed = new FakeContext2D();
    replay({ width: 0, height: 0 }, target(replayed), frame.ops, frame.n, [], frame.fresh);
    expect(replayed.calls).toEqual(direct.calls);
    expect(replayed.textIn(0, 17)).toBe('67391.51.250');
    expect(replayed.font).toBe('12px sans-serif');
  });

  it('numbers each string once: a second frame sends no string it already sent, and a full table starts again', () => {
    const canvas = {} as HTMLCanvasElement;
    const recording = new RecordingContext(canvas, null, () => undefined);
    const table: string[] = [];
    const replayed = new FakeContext2D();
    const run = () => {
      const f = recording.take(new Float64Array(1024));
      replay({ width: 0, height: 0 }, target(replayed), f.ops, f.n, table, f.fresh);
      return f;
    };
    recording.fillStyle = '#000';
    recording.fillText('100.5', 1, 1);
    expect(run().fresh).toEqual(['#000', '100.5']);
    recording.fillText('100.5', 2, 2);
    expect(run().fresh).toEqual([]);
    // Past the table's size: it starts again within the frame, and the replay still draws every text right.
    for (let i = 0; i < MAX_STRINGS + 10; i++) recording.fillText(`p${i}`, i, 0);
    recording.fillText('100.5', 3, 3);
    run();
    const texts = replayed.calls.filter((c) => c.op === 'fillText').map((c) => c.text);
    expect(texts.slice(0, 2)).toEqual(['100.5', '100.5']);
    expect(texts.slice(2, -1)).toEqual(Array.from({ length: MAX_STRINGS + 10 }, (_, i) => `p${i}`));
    expect(texts.at(-1)).toBe('100.5');
  });

  it('a resize sets the size where it is drawn, in order with the drawing', () => {
    const recording = new RecordingContext({} as HTMLCanvasElement, null, () => undefined);
    recording.fillRect(0, 0, 1, 1);
    recording.resize(640, 340);
    recording.fillRect(0, 0, 2, 2);
    const f = recording.take(new Float64Array(1024));
    const canvas = { width: 300, height: 150 };
    const sizes: string[] = [];
    const fake = new FakeContext2D();
    replay(canvas, () => {
      sizes.push(`${canvas.width}x${canvas.height}`);
      return fake as unknown as ReplayTarget;
    }, f.ops, f.n, [], f.fresh);
    expect(sizes).toEqual(['300x150', '640x340']);
    expect(fake.calls.map((c) => c.w)).toEqual([1, 2]);
  });
});
