import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type AxiosAdapter } from 'axios';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '../../api/client';
import type { Balance, Order, Position } from '../../api/contracts/trading';
import { userSettings } from '../../state/user-settings';
import type { PanelProps } from '../shared/panel-props';
import { BalancePanel } from './balance-panel';
import { OrderEntryPanel } from './order-entry-panel';
import { OrdersPanel } from './orders-panel';
import { PositionsPanel } from './positions-panel';
import { KEY, balance, fake, fillBracket, ok, order, position, renderPanel, resetFakeApi, restoreApi } from './trading-fixture';

// The account stream is the server's (tested there); here the panels read the REST answers.
vi.mock('../../api/trade/trade-stream', () => ({ openTradeStream: () => ({ close: () => undefined }) }));

beforeEach(resetFakeApi);
afterEach(restoreApi);

describe('trading panels', () => {
  it('Balance: total by default, available when chosen, masked when masking is on; the key password goes in the header', async () => {
    renderPanel(BalancePanel);
    // The file's first render also loads the panel's modules: a roomier wait than the default second (a hang guard, not a speed limit).
    expect(await screen.findByTestId('balance-headline', {}, { timeout: 10_000 })).toHaveTextContent('10012.50 USDT');
    expect(fake.calls).toContain(`get /v1/trade/${KEY.id}/balance key-pass-1`);
    userSettings.balanceType = 'available';
    await waitFor(() => expect(screen.getByTestId('balance-headline')).toHaveTextContent('9000.00 USDT'));
    userSettings.maskBalance = true;
    await waitFor(() => expect(screen.getByTestId('balance-headline')).toHaveTextContent('••••'));
    expect(screen.getByTestId('balance')).not.toHaveTextContent('USDT');
    // A currency no price links to: shown in the account's own, saying so.
    Object.assign(userSettings, { maskBalance: false, balanceCurrency: 'BTC' });
    await waitFor(() => expect(screen.getByTestId('balance-rate')).toHaveTextContent('No BTC price on this exchange: shown in USDT'));
    expect(screen.getByTestId('balance-headline')).toHaveTextContent('9000.00 USDT');
    // USD is shown one for one with USDT, marked as approximate.
    userSettings.balanceCurrency = 'USD';
    await waitFor(() => expect(screen.getByTestId('balance-headline')).toHaveTextContent('≈ 9000.00 USD'));
  });

  it('Positions: every pair, or only the traded one with hide-other-symbols; PnL with its % of margin', async () => {
    renderPanel(PositionsPanel);
    const table = await screen.findByTestId('positions-table');
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(table).toHaveTextContent('+12.50 USDT (19.23 %)');
    userSettings.hideOtherSymbolsPositions = true;
    await waitFor(() => expect(within(screen.getByTestId('positions-table')).getAllByRole('row')).toHaveLength(2));
    expect(screen.getByTestId('positions-table')).not.toHaveTextContent('ETHUSDT');
  });

  it('Orders: cancel asks first (confirm flag on), then cancels; with the flag off it cancels at once', async () => {
    renderPanel(OrdersPanel);
    const table = await screen.findByTestId('orders-table');
    fireEvent.click(within(table).getByRole('button', { name: 'Cancel BTCUSDT Limit' }));
    expect(fake.calls.some((c) => c.startsWith('delete'))).toBe(false);
    fireEvent.click(await screen.findByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(fake.calls).toContain(`delete /v1/trade/${KEY.id}/orders/o1 key-pass-1`));
    fake.calls = [];
    userSettings.confirmCancelOrder = false;
    userSettings.hideOtherSymbolsOrders = true;
    await waitFor(() => expect(within(screen.getByTestId('orders-table')).getAllByRole('row')).toHaveLength(2));
    fireEvent.click(within(screen.getByTestId('orders-table')).getByRole('button', { name: 'Cancel BTCUSDT Limit' }));
    await waitFor(() => expect(fake.calls).toContain(`delete /v1/trade/${KEY.id}/orders/o1 key-pass-1`));
  });

  it('without a password the key asks for it; "remember" keeps it on this device, forget removes it', async () => {
    userSettings.apiKeyPasswords = {};
    renderPanel(BalancePanel);
    const unlock = await screen.findByTestId('unlock-key');
    fireEvent.change(within(unlock).getByLabelText('Key password'), { target: { value: 'typed-pass-1' } });
    fireEvent.click(within(unlock).getByLabelText('Remember on this device'));
    fireEvent.click(within(unlock).getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByTestId('balance-headline')).toBeInTheDocument();
    expect(userSettings.apiKeyPasswords[KEY.id]).toBe('typed-pass-1');
    fireEvent.click(screen.getByRole('button', { name: 'Forget password' }));
    await screen.findByTestId('unlock-key');
    expect(userSettings.apiKeyPasswords[KEY.id]).toBeUndefined();
    // The server's unlock for this sign-in ends too (issue 25).
    await waitFor(() => expect(fake.calls).toContain(`delete /v1/api-keys/${KEY.id}/unlock `));
  });

  it('Orders: the rows of a bracket the server manages say so', async () => {
    fake.flags = { FF_ENABLE_SEMI_AUTO: true };
    fake.managedList = [{ bracketId: 'BKbbbbbbbbbbbbbbbbbb', symbol: 'BTCUSDT', side: 'BUY', options: { breakEven: true, trail: null }, phase: 'open', planned: [], state: 'running', breakEvenDone: false, message: null, createdAt: '2026-01-01T00:00:00.000Z' }];
    const base = `/v1/trade/${KEY.id}`;
    const managedOrder: Order = { ...order('o3', 'BTCUSDT'), type: 'STOP_MARKET', side: 'SELL', clientOrderId: 'BKbbbbbbbbbbbbbbbbbbS', bracketId: 'BKbbbbbbbbbbbbbbbbbb', role: 'stop-loss', triggerPrice: '59000', price: null };
    const inner = http.defaults.adapter as AxiosAdapter;
    http.defaults.adapter = async (config) => (config.url === `${base}/orders` && config.method === 'get' ? ok(config, [order('o1', 'BTCUSDT'), managedOrder]) : inner(config));
    renderPanel(OrdersPanel);
    const table = await screen.findByTestId('orders-table');
    await waitFor(() => expect(within(table).getAllByTestId('managed-badge')).toHaveLength(1));
    const rows = within(table).getAllByRole('row');
    expect(rows.find((r) => r.textContent?.includes('59000'))).toHaveTextContent('managed by server');
  });

  it('Orders: an entry whose stop and targets wait for the fill says what goes on when it fills', async () => {
    fake.managedList = [
      {
        bracketId: 'BKcccccccccccccccccc',
        symbol: 'BTCUSDT',
        side: 'BUY',
        options: null,
        phase: 'waiting',
        planned: [
          { role: 'stop-loss', type: 'STOP_MARKET', side: 'SELL', qty: '0.01', price: null, triggerPrice: '59000', clientOrderId: 'BKccccccccccccccccccS' },
          { role: 'take-profit', type: 'TAKE_PROFIT', side: 'SELL', qty: '0.01', price: '62000', triggerPrice: '62000', clientOrderId: 'BKccccccccccccccccccT1' },
        ],
        state: 'running',
        breakEvenDone: false,
        message: null,
        createdAt: '2026-01-01T00:00:00.000Z',
      },
    ];
    const base = `/v1/trade/${KEY.id}`;
    const entryOrder: Order = { ...order('o4', 'BTCUSDT'), clientOrderId: 'BKccccccccccccccccccE', bracketId: 'BKcccccccccccccccccc', role: 'entry' };
    const inner = http.defaults.adapter as AxiosAdapter;
    http.defaults.adapter = async (config) => (config.url === `${base}/orders` && config.method === 'get' ? ok(config, [entryOrder]) : inner(config));
    renderPanel(OrdersPanel);
    const table = await screen.findByTestId('orders-table');
    expect(await within(table).findByTestId('planned-legs')).toHaveTextContent('then SL 59000 · TP 62000 when filled');
    expect(within(table).queryByTestId('managed-badge')).toBeNull();
  });

  it('Orders: "Execute" on a waiting stop asks first (the close-position confirm flag), then trades; with the flag off it acts at once', async () => {
    fake.flags = { FF_ENABLE_EXECUTE_NON_TRIGGERED: true };
    const base = `/v1/trade/${KEY.id}`;
    const waiting: Order = { ...order('o5', 'BTCUSDT'), type: 'STOP_MARKET', side: 'SELL', status: 'UNTRIGGERED', price: null, triggerPrice: '59000', reduceOnly: true };
    const executed: string[] = [];
    const inner = http.defaults.adapter as AxiosAdapter;
    http.defaults.adapter = async (config) => {
      if (config.url === `${base}/orders` && config.method === 'get') return ok(config, [waiting]);
      if (config.url === `${base}/orders/o5/execute` && config.method === 'post') {
        executed.push('o5');
        return ok(config, { ...waiting, type: 'MARKET', status: 'FILLED' });
      }
      return inner(config);
    };
    renderPanel(OrdersPanel);
    const table = await screen.findByTestId('orders-table');
    await waitFor(() => expect(within(table).getByRole('button', { name: 'Execute BTCUSDT Stop market now' })).toBeInTheDocument());
    fireEvent.click(within(table).getByRole('button', { name: 'Execute BTCUSDT Stop market now' }));
    const yes = await screen.findByRole('button', { name: 'Yes' });
    expect(screen.getByText('Sell 0.01 BTCUSDT at market now (reduces the position)?')).toBeInTheDocument();
    expect(executed).toEqual([]);
    fireEvent.click(yes);
    await waitFor(() => expect(executed).toEqual(['o5']));

    Object.assign(userSettings, { confirmClosePosition: false });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Yes' })).toBeNull());
    fireEvent.click(within(screen.getByTestId('orders-table')).getByRole('button', { name: 'Execute BTCUSDT Stop market now' }));
    await waitFor(() => expect(executed).toEqual(['o5', 'o5']));
  });

  it('Unlock: a wrong key password keeps the unlock form and says so once, at the field; the right one unlocks', async () => {
    userSettings.apiKeyPasswords = {};
    renderPanel(OrderEntryPanel);
    const unlock = await screen.findByTestId('unlock-key');
    fireEvent.change(within(unlock).getByLabelText('Key password'), { target: { value: 'wrong-pass-1' } });
    fireEvent.click(within(unlock).getByRole('button', { name: 'Unlock' }));
    expect(await within(unlock).findByText('Wrong key password')).toBeInTheDocument();
    expect(screen.queryByTestId('order-entry')).toBeNull();
    // Nothing traded with the wrong password: only the check itself was sent.
    expect(fake.calls.filter((c) => c.includes('wrong-pass-1') && !c.includes('/unlock'))).toEqual([]);
    expect(fake.calls.filter((c) => c.startsWith(`post /v1/api-keys/${KEY.id}/unlock`))).toHaveLength(1);
    fireEvent.change(within(unlock).getByLabelText('Key password'), { target: { value: 'key-pass-1' } });
    expect(within(unlock).queryByText('Wrong key password')).toBeNull();
    fireEvent.click(within(unlock).getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByTestId('order-entry')).toBeInTheDocument();
  });

  it('A bracket refused part-way whose undoing failed (207): a warning names the live leg, and Orders marks its row', async () => {
    fake.custody = true;
    Object.assign(userSettings, { orderType: 'bracket-order', tickSize: 0.1, stepSize: 0.001, minQty: 0.001, maxQty: 100 });
    const base = `/v1/trade/${KEY.id}`;
    const stopLeft: Order = { ...order('o6', 'BTCUSDT'), type: 'STOP_MARKET', side: 'SELL', status: 'UNTRIGGERED', price: null, triggerPrice: '59000', reduceOnly: true, clientOrderId: 'BKdddddddddddddddddddS', bracketId: 'BKdddddddddddddddddd', role: 'stop-loss' };
    const inner = http.defaults.adapter as AxiosAdapter;
    http.defaults.adapter = async (config) => {
      if (config.url === `${base}/brackets` && config.method === 'post') {
        fake.posted.push(JSON.parse(String(config.data)));
        return {
          ...ok(config, {
            bracketId: 'BKdddddddddddddddddd',
            orders: [stopLeft],
            planned: [],
            managed: false,
            partial: { message: 'Take-profit 1 was refused (…). Still live: the stop-loss — check the Orders panel.', live: [{ role: 'stop-loss', orderId: 'o6', clientOrderId: stopLeft.clientOrderId!, state: 'open' }] },
          }),
          status: 207,
        };
      }
      if (config.url === `${base}/orders` && config.method === 'get') return ok(config, [stopLeft]);
      return inner(config);
    };
    const Both = ({ node: n }: PanelProps) => (
      <>
        <OrderEntryPanel node={n} />
        <OrdersPanel node={n} />
      </>
    );
    renderPanel(Both);
    const entry = await screen.findByTestId('order-entry');
    await waitFor(() => expect(within(entry).getByLabelText('Stop-loss')).toBeInTheDocument());
    fillBracket(entry);
    fireEvent.click(within(entry).getByTestId('place-order'));
    await waitFor(() => expect(fake.posted).toHaveLength(1));
    expect(await screen.findByTestId('left-live-badge')).toHaveTextContent('left live by a refused bracket: cancel it');
  });

  it('Coin-margined amounts are readable: an inverse position\'s PnL in its coin with 8 decimals, the coin balance listed in Balance', async () => {
    const base = `/v1/trade/${KEY.id}`;
    const inverse: Position = { ...position('BTCUSD'), category: 'inverse', size: '10', unrealisedPnl: '-0.00001503', realisedPnl: '0.00002', margin: '0.0016' };
    const coinBalance: Balance = { ...balance, assets: [{ currency: 'USDT', total: '10012.5', available: '9000' }, { currency: 'BTC', total: '0.5', available: '0.4984' }] };
    const inner = http.defaults.adapter as AxiosAdapter;
    http.defaults.adapter = async (config) => {
      if (config.url === `${base}/positions`) return ok(config, [inverse]);
      if (config.url === `${base}/balance`) return ok(config, coinBalance);
      // The coin comes from the instrument (its settle currency), not from the symbol's letters.
      if (config.url?.startsWith('/v1/exchange-account/exchange-info/')) return ok(config, [{ symbol: 'BTCUSD', exchangeSymbol: 'BTCUSD', base: 'BTC', quote: 'USD', settle: 'BTC', category: 'inverse', tickSize: '0.5', stepSize: '1', minQty: '1', maxQty: '1000000', contractValue: '1', precision: 1, quantityPrecision: 0 }]);
      return inner(config);
    };
    renderPanel(PositionsPanel);
    expect(await screen.findByTestId('position-pnl')).toHaveTextContent('-0.00001503 BTC (-0.94 %)');
    cleanup();
    renderPanel(BalancePanel);
    expect(await screen.findByTestId('balance-assets', {}, { timeout: 5000 })).toHaveTextContent('BTC0.50000000 BTCavailable 0.49840000 BTC');
  });
});
