import { Actions, type TabNode } from 'flexlayout-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ScannerView } from '../../api/contracts/scanner';
import { parseView } from './scanner-view';

/** Typing in the search box writes the layout once the user pauses, not on every key. */
const SAVE_DELAY_MS = 400;

/**
 * The panel's view (filters, sort, favourites first), kept in its layout node's config so it is
 * saved with the layout and comes back on reload and on other devices. Local state answers at
 * once; the node is written after a short pause.
 */
export function useScannerView(node: TabNode): [ScannerView, (patch: Partial<ScannerView>) => void, (view: ScannerView) => void] {
  const [view, setView] = useState<ScannerView>(() => parseView((node.getConfig() as { view?: unknown } | undefined)?.view));
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef(view);

  const persist = useCallback(
    (next: ScannerView) => {
      latest.current = next;
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        timer.current = null;
        const config = (node.getConfig() as Record<string, unknown> | undefined) ?? {};
        node.getModel().doAction(Actions.updateNodeAttributes(node.getId(), { config: { ...config, view: latest.current } }));
      }, SAVE_DELAY_MS);
    },
    [node],
  );
  // A pending write still lands when the panel closes or the page changes route.
  useEffect(
    () => () => {
      if (!timer.current) return;
      clearTimeout(timer.current);
      const config = (node.getConfig() as Record<string, unknown> | undefined) ?? {};
      if (node.getModel().getNodeById(node.getId())) node.getModel().doAction(Actions.updateNodeAttributes(node.getId(), { config: { ...config, view: latest.current } }));
    },
    [node],
  );

  const update = useCallback(
    (patch: Partial<ScannerView>) => {
      const next = { ...latest.current, ...patch };
      setView(next);
      persist(next);
    },
    [persist],
  );
  const replace = useCallback(
    (next: ScannerView) => {
      setView(next);
      persist(next);
    },
    [persist],
  );
  return [view, update, replace];
}
