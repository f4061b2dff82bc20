import { useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { ExchangeId } from '../../api/contracts/common';
import { openScannerStream, type ScannerStreamState } from '../../api/scanner/scanner-stream';
import { ScannerBook } from './scanner-book';

/**
 * At most two repaints a second (issue 14: "a few"): messages land in the book as they come; a
 * repaint (a new generation: the visible rows are rewritten, changed cells flash) follows at most
 * every REPAINT_MS. Two a second is the server's own push cadence (`pushIntervalMs` 500), so a
 * faster repaint would show nothing new in production; and a repaint that rewrites every visible
 * number costs a frame several milliseconds of text layout (see the scanner bench), so fewer of
 * them keep more frames light.
 */
export const REPAINT_MS = 500;

export interface ScannerFeed {
  book: ScannerBook;
  /** Changes with every repaint: what the table's memos key on. */
  generation: number;
  connection: ScannerStreamState;
  /** The server refused the stream (403: the scanner was turned off). */
  refused: { status: number; message: string } | null;
}

/** The live rows of `exchanges` from `/v1/scanner/stream`, repainted at most 1000 / REPAINT_MS times a second. */
export function useScannerFeed(exchanges: readonly ExchangeId[]): ScannerFeed {
  const [book] = useState(() => new ScannerBook());
  const [generation, setGeneration] = useState(0);
  const [connection, setConnection] = useState<ScannerStreamState>('connecting');
  const [refused, setRefused] = useState<ScannerFeed['refused']>(null);
  const stream = useRef<ReturnType<typeof openScannerStream> | null>(null);
  const schedule = useRef<() => void>(() => undefined);
  const initial = useRef(exchanges);
  const key = exchanges.join(',');

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let lastPaint = -Infinity;
    let frame: number | null = null;
    schedule.current = () => {
      if (timer !== null || frame !== null) return;
      timer = setTimeout(
        () => {
          timer = null;
          // Rendered inside an animation frame, synchronously: the row writes and the layout and
          // paint they cause land in one frame, not in two (a React task, then the frame).
          frame = requestAnimationFrame(() => {
            frame = null;
            lastPaint = performance.now();
            flushSync(() => setGeneration(book.commit()));
          });
        },
        Math.max(0, lastPaint + REPAINT_MS - performance.now()),
      );
    };
    const s = openScannerStream(initial.current, {
      onMessage(message) {
        if (message.type === 'snapshot') book.applySnapshot(message.exchange, message.rows, message.status);
        else if (message.type === 'update') book.applyUpdate(message.exchange, message.blocks);
        else if (message.type === 'status') book.applyStatus(message.status);
        if (book.dirty) schedule.current();
      },
      onState: setConnection,
      onRefused: (status, message) => setRefused({ status, message }),
    });
    stream.current = s;
    return () => {
      s.close();
      stream.current = null;
      if (timer !== null) clearTimeout(timer);
      if (frame !== null) cancelAnimationFrame(frame);
      schedule.current = () => undefined;
    };
  }, [book]);

  useEffect(() => {
    const watched = key ? (key.split(',') as ExchangeId[]) : [];
    stream.current?.setExchanges(watched);
    // Rows of exchanges nobody watches any more go; a later subscribe brings a fresh snapshot.
    for (const exchange of [...book.statuses.keys()]) if (!watched.includes(exchange)) book.dropExchange(exchange);
    if (book.dirty) schedule.current();
  }, [book, key]);

  return { book, generation, connection, refused };
}
