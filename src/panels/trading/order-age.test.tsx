import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { orderAge } from './open-order-row';
import { OrdersPanel } from './orders-panel';
import { renderPanel, resetFakeApi, restoreApi } from './trading-fixture';

vi.mock('../../api/trade/trade-stream', () => ({ openTradeStream: () => ({ close: () => undefined }) }));

beforeEach(resetFakeApi);
afterEach(() => {
  cleanup();
  restoreApi();
});

describe('an open order’s age', () => {
  it('reads as seconds, minutes, hours, days', () => {
    const at = Date.parse('2026-01-01T00:00:00Z');
    expect(orderAge('2026-01-01T00:00:00Z', at + 59_999)).toBe('59s');
    expect(orderAge('2026-01-01T00:00:00Z', at + 60_000)).toBe('1m');
    expect(orderAge('2026-01-01T00:00:00Z', at + 3_600_000)).toBe('1h');
    expect(orderAge('2026-01-01T00:00:00Z', at + 86_400_000 * 2)).toBe('2d');
    // A clock a little behind the exchange's never shows a negative age.
    expect(orderAge('2026-01-01T00:00:10Z', at)).toBe('0s');
  });

  it('keeps counting in the Orders panel while nothing else about the order changes (its row is memoised)', async () => {
    renderPanel(OrdersPanel);
    const table = await screen.findByTestId('orders-table', {}, { timeout: 10_000 });
    const row = within(table).getAllByRole('row')[1];
    const cells = () => within(row).getAllByRole('cell');
    const ageCell = () => cells()[cells().length - 2];
    const first = ageCell().textContent;
    expect(first).toMatch(/^\d+s$/);
    // The fixture's orders were created just now: within a few seconds the cell says a later second.
    await waitFor(() => expect(ageCell().textContent).not.toBe(first), { timeout: 4_000 });
    expect(ageCell().textContent).toMatch(/^\d+s$/);
  });
});
