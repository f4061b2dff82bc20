/**
 * One wall-clock second ticker shared by every chart on the page. It fires just after each whole
 * second, so a countdown label shows the right second (not up to a second late), and all charts
 * repaint their countdowns in the same task — one animation frame for all of them instead of one
 * frame per chart at its own phase. The timer runs only while someone listens.
 */
type Listener = () => void;

const listeners = new Set<Listener>();
let timer: ReturnType<typeof setTimeout> | null = null;
/** Past the boundary, so the clock read in the listeners is in the new second. */
const AFTER_BOUNDARY_MS = 2;

function schedule(): void {
  timer = setTimeout(
    () => {
      timer = null;
      // Next tick first: a listener that throws must not stop every chart's countdown.
      schedule();
      for (const l of [...listeners]) l();
    },
    1000 - (Date.now() % 1000) + AFTER_BOUNDARY_MS,
  );
}

/** Calls `listener` after every whole second until the returned function is called. */
export function onEverySecond(listener: Listener): () => void {
  listeners.add(listener);
  if (timer === null) schedule();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
  };
}
