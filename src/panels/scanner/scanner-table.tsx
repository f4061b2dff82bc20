import { UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconStar, IconStarFilled } from '@tabler/icons-react';
import { memo, type KeyboardEvent, type MouseEvent } from 'react';
import { SCANNER_VALUE_FIELDS, type ScannerSortColumn, type ScannerValueField } from '../../api/contracts/scanner';
import type { BookRow } from './scanner-book';
import { ROW_HEIGHT, SCANNER_COLUMNS, SCANNER_GRID, SCANNER_MIN_WIDTH } from './scanner-columns';
import type { SlotElements } from './scanner-slots';
import { useVirtualRows } from './use-virtual-rows';
import classes from './scanner-panel.module.css';

export interface ScannerTableProps {
  rows: readonly BookRow[];
  generation: number;
  sort: ScannerSortColumn;
  direction: 'asc' | 'desc';
  onSort: (column: ScannerSortColumn) => void;
  favorites: ReadonlySet<string>;
  activeKey: string | null;
  onOpen: (row: BookRow) => void;
  onToggleFavorite: (row: BookRow) => void;
  /** The pointer entered (true) or left (false) the rows: the order holds still meanwhile. */
  onHoverChange: (hovered: boolean) => void;
  /** Shown under the header when there are no rows (null: nothing). */
  emptyText?: string | null;
}

/**
 * The scanner's table: a sticky header of sort buttons over virtualised rows. Only one line per
 * visible row exists in the DOM (a "slot", `scanner-slots.ts`); repaints and scrolls write the rows
 * in view into the slots. One scroll container holds header and rows, so a narrow panel scrolls
 * both sideways together.
 */
export function ScannerTable({ rows, generation, sort, direction, onSort, favorites, activeKey, onOpen, onToggleFavorite, onHoverChange, emptyText }: ScannerTableProps) {
  const { scroller, windowEl, slots, slotCount, latest, onScroll } = useVirtualRows({ rows, generation, favorites, activeKey });
  const { onClick, onKeyDown } = rowHandlers(latest, onOpen, onToggleFavorite);

  return (
    <div ref={scroller} className={classes.scroller} onScroll={onScroll} role="table" aria-label="Scanner" aria-rowcount={rows.length + 1} data-testid="scanner-table">
      <ScannerHeader sort={sort} direction={direction} onSort={onSort} />
      {emptyText ? (
        <div className={classes.empty} data-testid="scanner-empty">
          {emptyText}
        </div>
      ) : null}
      <div
        className={classes.body}
        style={{ height: rows.length * ROW_HEIGHT, minWidth: SCANNER_MIN_WIDTH }}
        onPointerEnter={() => onHoverChange(true)}
        onPointerLeave={() => onHoverChange(false)}
        onClick={onClick}
        onKeyDown={onKeyDown}
        role="rowgroup"
      >
        <div ref={windowEl} className={classes.window}>
          {Array.from({ length: slotCount }, (_, i) => (
            <ScannerSlot key={i} index={i} register={slots.current} />
          ))}
        </div>
      </div>
    </div>
  );
}

/** Clicks and Enter / Space on the rows (one listener for all slots): the star toggles a favourite, the rest opens the pair. */
function rowHandlers(latest: { readonly current: { rows: readonly BookRow[] } }, onOpen: (row: BookRow) => void, onToggleFavorite: (row: BookRow) => void) {
  const rowOf = (target: EventTarget): BookRow | undefined => {
    const key = (target as HTMLElement).closest<HTMLElement>('[data-slot]')?.dataset.key;
    return key === undefined ? undefined : latest.current.rows.find((r) => r.key === key);
  };
  const onClick = (e: MouseEvent) => {
    const row = rowOf(e.target);
    if (!row) return;
    if ((e.target as HTMLElement).closest('[data-star]')) onToggleFavorite(row);
    else onOpen(row);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if ((e.key !== 'Enter' && e.key !== ' ') || (e.target as HTMLElement).closest('[data-star]')) return;
    const row = rowOf(e.target);
    if (!row) return;
    e.preventDefault();
    onOpen(row);
  };
  return { onClick, onKeyDown };
}

const ScannerHeader = memo(function ScannerHeader({ sort, direction, onSort }: Pick<ScannerTableProps, 'sort' | 'direction' | 'onSort'>) {
  return (
    <div className={classes.header} style={{ gridTemplateColumns: SCANNER_GRID, minWidth: SCANNER_MIN_WIDTH }} role="row">
      <div role="columnheader" aria-label="Favourite" />
      {SCANNER_COLUMNS.map((c) => {
        const sorted = c.id === sort;
        return (
          <div key={c.id} role="columnheader" aria-sort={sorted ? (direction === 'asc' ? 'ascending' : 'descending') : 'none'} data-numeric={c.numeric || undefined}>
            <UnstyledButton className={classes.sortButton} title={c.help} onClick={() => onSort(c.id)} data-sorted={sorted || undefined}>
              {c.label}
              {sorted ? direction === 'asc' ? <IconArrowUp size={11} aria-hidden /> : <IconArrowDown size={11} aria-hidden /> : null}
            </UnstyledButton>
          </div>
        );
      })}
    </div>
  );
});

/** One line of the table, filled by `paintSlot`; React renders it once. */
const ScannerSlot = memo(function ScannerSlot({ index, register }: { index: number; register: (SlotElements | null)[] }) {
  const ref = (row: HTMLDivElement | null) => {
    if (!row) {
      register[index] = null;
      return;
    }
    const cells = {} as Record<ScannerValueField, HTMLElement>;
    for (const field of SCANNER_VALUE_FIELDS) cells[field] = row.querySelector<HTMLElement>(`[data-field=${field}]`) as HTMLElement;
    register[index] = {
      row,
      star: row.querySelector<HTMLElement>('[data-star]') as HTMLElement,
      pair: row.querySelector<HTMLElement>('[data-cell=pair]') as HTMLElement,
      exchange: row.querySelector<HTMLElement>('[data-cell=exchange]') as HTMLElement,
      cells,
    };
  };
  return (
    <div ref={ref} role="row" tabIndex={0} hidden className={classes.row} style={{ gridTemplateColumns: SCANNER_GRID }} data-testid="scanner-row" data-slot={index}>
      <div role="cell" className={classes.star}>
        <button type="button" className={classes.starButton} data-star aria-pressed="false">
          <IconStar size={13} className={classes.starOff} aria-hidden />
          <IconStarFilled size={13} className={classes.starOn} aria-hidden />
        </button>
      </div>
      <div role="cell" className={classes.pair} data-cell="pair" />
      <div role="cell" className={classes.exchange} data-cell="exchange" />
      {SCANNER_VALUE_FIELDS.map((field) => (
        <div key={field} role="cell" className={classes.num} data-field={field} />
      ))}
    </div>
  );
});
