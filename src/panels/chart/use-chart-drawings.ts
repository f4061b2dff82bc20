import { useEffect, useMemo, useRef } from 'react';
import { useSnapshot } from 'valtio';
import { useServerSettings } from '../../api/settings/get-server-settings';
import { useUpdateServerSettings } from '../../api/settings/update-server-settings';
import type { ChartEngine, Tool } from '../../engine';
import { drawingSettings, removeFibSelection, setDrawingMode } from '../../state/drawing-settings';
import { commitDrawingPatch, deleteDrawingPatch, drawingsForMarket, importLocalFibs, type Market } from './drawing-records';

export interface DrawingFlags {
  /** FF_ENABLE_DRAWING_TOOL: drawings shown and editable, toolbar offered. */
  drawing: boolean;
  /** FF_ENABLE_FIBONACCI_TOOL (with the drawing flag): the Fib Retracement tool. */
  fib: boolean;
}

/**
 * The drawings bridge of one chart (STYLE pattern 7): the chart's drawings from the server
 * settings are pushed into the engine as a snapshot whenever they change (on any device: the
 * settings are refetched on focus); the engine's `drawingCommitted` / `drawingDeleted` are written
 * back through the optimistic settings mutation, which pushes the new snapshot at once and rolls it
 * back (with a toast) if the server refuses. The tool and colour come from the device's drawing
 * settings. Returns the number of drawings shown.
 */
export function useChartDrawings(engine: ChartEngine | null, market: Market, flags: DrawingFlags): number {
  const { data: settings } = useServerSettings();
  const { mutate } = useUpdateServerSettings();
  const { mode, color } = useSnapshot(drawingSettings);
  const marketRef = useRef(market);
  marketRef.current = market;

  const { exchange, symbol } = market;
  const horizontalLines = settings?.horizontalLines;
  const rectangles = settings?.rectangles;
  const fibs = settings?.fibs;
  const drawings = useMemo(
    () => (flags.drawing && horizontalLines && rectangles && fibs ? drawingsForMarket({ horizontalLines, rectangles, fibs }, { exchange, symbol }) : []),
    [flags.drawing, horizontalLines, rectangles, fibs, exchange, symbol],
  );
  useEffect(() => engine?.setDrawings(drawings), [engine, drawings]);

  const tool: Tool = !flags.drawing || (mode === 'fib-retracement' && !flags.fib) ? 'default' : mode;
  useEffect(() => engine?.setTool(tool), [engine, tool]);
  useEffect(() => engine?.setToolOptions({ color, symbol }), [engine, color, symbol]);

  useEffect(() => {
    if (!engine) return;
    const stops = [
      engine.on('drawingCommitted', ({ drawing }) => mutate((s) => commitDrawingPatch(s, marketRef.current, drawing))),
      engine.on('drawingDeleted', ({ drawing }) => mutate((s) => deleteDrawingPatch(s, marketRef.current, drawing))),
      // Back to Select after placing a drawing (or Escape): every chart's toolbar follows.
      engine.on('toolChanged', ({ tool: next }) => next !== 'position' && setDrawingMode(next)),
    ];
    return () => stops.forEach((stop) => stop());
  }, [engine, mutate]);

  return drawings.length;
}

// One import at a time for the whole window, however many charts are open; after a refusal not
// again until the next page load (the rollback changes the settings, which would retry at once).
let importing = false;
let importRefused = false;

/**
 * Fib selections an older build kept on this device are moved to the server settings (the source
 * of truth for drawing records) and then forgotten here; see `importLocalFibs`.
 */
export function useLocalFibImport(): void {
  const { data: settings } = useServerSettings();
  const { mutateAsync } = useUpdateServerSettings();
  const { fibSelections } = useSnapshot(drawingSettings);

  useEffect(() => {
    if (!settings || fibSelections.length === 0 || importing || importRefused) return;
    const { patch, ids } = importLocalFibs(settings, fibSelections);
    const forget = () => ids.forEach((id) => removeFibSelection(id));
    if (!patch) {
      forget();
      return;
    }
    importing = true;
    mutateAsync(patch)
      .then(forget, () => {
        importRefused = true; // kept on the device, tried again on the next load
      })
      .finally(() => {
        importing = false;
      });
  }, [settings, fibSelections, mutateAsync]);
}
