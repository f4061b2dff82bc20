import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type AxiosAdapter } from 'axios';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '../../api/client';
import type { Balance } from '../../api/contracts/trading';
import { tradingHotkeys } from '../../state/hotkeys';
import { userSettings } from '../../state/user-settings';
import { WorkstationHotkeys } from '../workstation/hotkeys-help';
import type { PanelProps } from '../shared/panel-props';
import { OrderEntryPanel } from './order-entry-panel';
import { KEY, fake, fillBracket, ok, position, renderPanel, resetFakeApi, restoreApi } from './trading-fixture';

// The account stream is the server's (tested there); here the panels read the REST answers.
vi.mock('../../api/trade/trade-stream', () => ({ openTradeStream: () => ({ close: () => undefined }) }));

beforeEach(resetFakeApi);
afterEach(restoreApi);

describe('Order entry', () => {
  it('Order entry: without FF_LADDER_ORDERS a stored ladder choice falls back to the bracket form', async () => {
    Object.assign(userSettings, { orderType: 'ladder-order' });
    renderPanel(OrderEntryPanel);
    const entry = await screen.findByTestId('order-entry');
    await waitFor(() => expect(within(entry).getByLabelText('Stop-loss')).toBeInTheDocument());
    expect(within(entry).queryByLabelText('From price')).toBeNull();
  });

  it('Order entry: the ladder (FF_LADDER_ORDERS) sends count orders between two prices, snapped to the tick', async () => {
    fake.flags = { FF_LADDER_ORDERS: true };
    Object.assign(userSettings, { orderType: 'ladder-order', tickSize: 0.1, stepSize: 0.001, minQty: 0.001, maxQty: 100 });
    renderPanel(OrderEntryPanel);
    const entry = await screen.findByTestId('order-entry');
    await waitFor(() => expect(within(entry).getByLabelText('From price')).toBeInTheDocument());
    fireEvent.change(within(entry).getByLabelText('From price'), { target: { value: '60000.04' } });
    fireEvent.blur(within(entry).getByLabelText('From price'));
    expect(within(entry).getByLabelText('From price')).toHaveValue('60000');
    fireEvent.change(within(entry).getByLabelText('To price'), { target: { value: '59000' } });
    fireEvent.change(within(entry).getByLabelText(/^Size/), { target: { value: '0.05' } });
    fireEvent.click(within(entry).getByTestId('place-order'));
    // With a client id: a retry of the same ladder is answered by the server, never placed twice.
    await waitFor(() =>
      expect(fake.posted).toEqual([{ symbol: 'BTCUSDT', side: 'BUY', qty: '0.05', from: '60000', to: '59000', count: 5, distribution: 'linear', reduceOnly: false, postOnly: false, clientOrderId: expect.stringMatching(/^ct[A-Za-z0-9]+$/) }]),
    );
  });

  it('Order entry: "managed by server" (FF_ENABLE_SEMI_AUTO) is explained and off until the key is allowed; then the bracket carries it', async () => {
    fake.flags = { FF_ENABLE_SEMI_AUTO: true };
    Object.assign(userSettings, { orderType: 'bracket-order', tickSize: 0.1, stepSize: 0.001, minQty: 0.001, maxQty: 100 });
    renderPanel(OrderEntryPanel);
    const box = await screen.findByTestId('managed-bracket');
    const breakEven = within(box).getByLabelText('Move the stop to break-even when take-profit 1 fills');
    expect(breakEven).toBeDisabled();
    expect(box).toHaveTextContent('It needs your permission to keep this key');
    fireEvent.click(within(box).getByRole('button', { name: 'Allow for Main…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Let the server guard brackets with Main?' });
    expect(dialog).toHaveTextContent('deleted when the last one ends or when you turn this off');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Allow' }));
    await waitFor(() => expect(fake.calls).toContain(`put /v1/api-keys/${KEY.id}/server-custody `));
    await waitFor(() => expect(within(screen.getByTestId('managed-bracket')).getByLabelText('Move the stop to break-even when take-profit 1 fills')).toBeEnabled());

    const entry = screen.getByTestId('order-entry');
    fireEvent.click(within(entry).getByText('Limit entry'));
    fireEvent.change(within(entry).getByLabelText('Entry price'), { target: { value: '60000' } });
    fireEvent.change(within(entry).getByLabelText('Stop-loss'), { target: { value: '59000' } });
    fireEvent.click(within(entry).getByText('Size'));
    fireEvent.change(within(entry).getByRole('textbox', { name: /^Size/ }), { target: { value: '0.01' } });
    fireEvent.change(within(entry).getByLabelText('Take-profit 1'), { target: { value: '62000' } });
    const managedBox = screen.getByTestId('managed-bracket');
    fireEvent.click(within(managedBox).getByLabelText('Move the stop to break-even when take-profit 1 fills'));
    fireEvent.click(within(managedBox).getByLabelText('Trail the stop by'));
    // A trail without a distance says so at the field and sends nothing.
    fireEvent.click(within(entry).getByTestId('place-order'));
    expect(await within(managedBox).findByText('Enter the trailing distance')).toBeInTheDocument();
    expect(fake.posted).toEqual([]);
    fireEvent.change(within(managedBox).getByLabelText('Trailing distance'), { target: { value: '1.5' } });
    fireEvent.click(within(entry).getByTestId('place-order'));
    await waitFor(() => expect(fake.posted).toHaveLength(1));
    expect(fake.posted[0]).toMatchObject({
      symbol: 'BTCUSDT',
      side: 'BUY',
      qty: '0.01',
      entry: { type: 'LIMIT', price: '60000' },
      stopLoss: { triggerPrice: '59000' },
      managed: { breakEven: true, trail: { mode: 'percent', value: '1.5' } },
    });
  });

  it('Order entry: the first bracket on a key asks for the server-custody consent; "Not now" sends nothing, "Allow" sends the bracket once', async () => {
    Object.assign(userSettings, { orderType: 'bracket-order', tickSize: 0.1, stepSize: 0.001, minQty: 0.001, maxQty: 100 });
    renderPanel(OrderEntryPanel);
    const entry = await screen.findByTestId('order-entry');
    await waitFor(() => expect(within(entry).getByLabelText('Stop-loss')).toBeInTheDocument());
    fillBracket(entry);
    fireEvent.click(within(entry).getByTestId('place-order'));
    let dialog = await screen.findByRole('dialog', { name: 'Let the server guard brackets with Main?' });
    expect(dialog).toHaveTextContent("places a resting entry’s stop-loss and take-profits the moment the entry fills");
    fireEvent.click(within(dialog).getByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.posted).toEqual([]);

    fireEvent.click(within(entry).getByTestId('place-order'));
    dialog = await screen.findByRole('dialog', { name: 'Let the server guard brackets with Main?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Allow' }));
    await waitFor(() => expect(fake.posted).toHaveLength(1));
    expect(fake.calls.filter((c) => c.startsWith(`put /v1/api-keys/${KEY.id}/server-custody`))).toHaveLength(1);
    expect(fake.posted[0]).toMatchObject({ entry: { type: 'LIMIT', price: '60000' }, stopLoss: { triggerPrice: '59000' }, clientOrderId: expect.stringMatching(/^ct/) });
    // Allowed now: the next bracket goes straight out (once the first has been answered).
    await waitFor(() => expect(within(entry).getByTestId('place-order')).not.toHaveAttribute('data-loading'));
    fireEvent.click(within(entry).getByTestId('place-order'));
    await waitFor(() => expect(fake.posted).toHaveLength(2));
    expect((fake.posted[1] as { clientOrderId: string }).clientOrderId).not.toBe((fake.posted[0] as { clientOrderId: string }).clientOrderId);
  });

  it.each([
    ['bracket-order', 'market entry, size from risk'],
    ['bracket-order', 'limit entry, size by hand'],
    ['market', ''],
    ['limit', ''],
    ['stop-market', ''],
    ['stop-limit', ''],
    ['take-profit', ''],
    ['ladder-order', ''],
  ])('Order entry (%s %s): any text typed key by key into any number field never breaks the panel, and nothing is sent', async (orderType, variant) => {
    fake.flags = { FF_LADDER_ORDERS: true };
    Object.assign(userSettings, { orderType, tickSize: 0.1, stepSize: 0.001, minQty: 0.001, maxQty: 100 });
    renderPanel(OrderEntryPanel);
    const entry = await screen.findByTestId('order-entry');
    await waitFor(() => expect(within(entry).getByTestId('place-order')).toBeInTheDocument());
    if (variant.startsWith('limit entry')) fireEvent.click(within(entry).getByText('Limit entry'));
    if (variant.endsWith('by hand')) fireEvent.click(within(entry).getByText('Size'));
    const fields = within(entry).getAllByRole('textbox').filter((f) => f.getAttribute('inputmode') === 'decimal');
    expect(fields.length).toBeGreaterThan(0);
    const tricky = fc.constantFrom('0.', '.', '0.05', '0,05', 'abc', '1e5', '-1', ' 7 ', '00.0.0', '٣', '∞', '1_000', '0x1f', '');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(fields.length - 1), fc.oneof(tricky, fc.string({ maxLength: 8 }))), { minLength: 1, maxLength: 4 }), (typing) => {
        for (const [i, text] of typing) {
          // Key by key, as a trader types: every prefix is rendered.
          for (let n = 0; n <= text.length; n++) fireEvent.change(fields[i]!, { target: { value: text.slice(0, n) } });
          expect(screen.queryByTestId('part-error')).toBeNull();
          expect(screen.getByTestId('order-entry')).toBeInTheDocument();
        }
      }),
      { numRuns: 12, seed: 21 },
    );
    // A typo is said at its field; pressing the button then sends nothing.
    fireEvent.change(fields[0]!, { target: { value: '0,05' } });
    expect(within(entry).getByText('Use a point, not a comma (0.05)')).toBeInTheDocument();
    fireEvent.click(within(entry).getByTestId('place-order'));
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.posted).toEqual([]);
  });

  it('Order entry on an OKX inverse swap: sized from the BTC balance and the 100 USD contract, risk in BTC and in USD (never the USDT total read as BTC)', async () => {
    const okxKey = { ...KEY, exchange: 'okx' as const };
    const coinBalance: Balance = { currency: 'USDT', total: '10000', available: '10000', unrealisedPnl: '0', marginUsed: '0', assets: [{ currency: 'USDT', total: '10000', available: '10000' }, { currency: 'BTC', total: '0.5', available: '0.5' }] };
    const inner = http.defaults.adapter as AxiosAdapter;
    http.defaults.adapter = async (config) => {
      if (config.url === '/v1/api-keys') return ok(config, [{ ...okxKey, serverCustody: true }]);
      if (config.url === `/v1/trade/${KEY.id}/balance`) return ok(config, coinBalance);
      return inner(config);
    };
    Object.assign(userSettings, {
      exchangeName: 'okx',
      tradingPair: 'BTCUSD',
      orderType: 'bracket-order',
      category: 'inverse',
      contractValue: 100,
      settleCurrency: 'BTC',
      tickSize: 0.1,
      stepSize: 1,
      minQty: 1,
      maxQty: 1000000,
    });
    renderPanel(OrderEntryPanel);
    const entry = await screen.findByTestId('order-entry');
    await waitFor(() => expect(within(entry).getByLabelText('Stop-loss')).toBeInTheDocument());
    fireEvent.click(within(entry).getByText('Limit entry'));
    fireEvent.change(within(entry).getByLabelText('Entry price'), { target: { value: '60000' } });
    fireEvent.change(within(entry).getByLabelText('Stop-loss'), { target: { value: '59400' } });
    fireEvent.click(within(entry).getByText('0.5%'));
    // 0.5 % of 0.5 BTC = 0.0025 BTC; one contract loses 100 × (1/59400 − 1/60000) BTC → 148 contracts (of 100 USD each).
    await waitFor(() => expect(within(entry).getByTestId('risk-size')).toHaveTextContent(/^Size 148 ≈ \$14,800/));
    expect(within(entry).getByTestId('risk-amount')).toHaveTextContent('0.00249158 BTC ≈ $149.49');
    // The one line that stays above the button, whatever scrolls.
    expect(within(entry).getByTestId('order-summary')).toHaveTextContent('Risk 0.00249158 BTC (0.5 %) · ≈ $14,800');
  });

  it('Trading hotkeys: off by default; on, Shift+B presses Order entry\'s Buy — the bracket the form shows, never a naked market order', async () => {
    fake.custody = true;
    Object.assign(userSettings, { orderType: 'bracket-order', tickSize: 0.1, stepSize: 0.001, minQty: 0.001, maxQty: 100 });
    const WithHotkeys = ({ node: n }: PanelProps) => (
      <>
        <OrderEntryPanel node={n} />
        <WorkstationHotkeys />
      </>
    );
    renderPanel(WithHotkeys);
    const entry = await screen.findByTestId('order-entry');
    await waitFor(() => expect(within(entry).getByLabelText('Stop-loss')).toBeInTheDocument());
    fillBracket(entry);
    const shiftKey = (code: string) => fireEvent.keyDown(window, { code, key: code.slice(3), shiftKey: true });

    tradingHotkeys.on = false;
    shiftKey('KeyB');
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.posted).toEqual([]);
    expect(fake.calls.some((c) => c.startsWith(`post /v1/trade/${KEY.id}/orders`))).toBe(false);

    tradingHotkeys.on = true;
    try {
      shiftKey('KeyB');
      await waitFor(() => expect(fake.posted).toHaveLength(1));
      expect(fake.posted[0]).toMatchObject({ side: 'BUY', entry: { type: 'LIMIT', price: '60000' }, stopLoss: { triggerPrice: '59000' }, takeProfits: [{ price: '62000', qtyPercent: 100 }] });
      expect(fake.calls.some((c) => c.startsWith(`post /v1/trade/${KEY.id}/orders`))).toBe(false);
      // The other side's key turns the form round and sends nothing: its stop was set for a buy.
      await waitFor(() => expect(within(entry).getByTestId('place-order')).not.toHaveAttribute('data-loading'));
      shiftKey('KeyS');
      await waitFor(() => expect(within(entry).getByTestId('place-order')).toHaveTextContent(/^Sell/));
      expect(fake.posted).toHaveLength(1);
    } finally {
      tradingHotkeys.on = false;
    }
  });

  it('Order entry: a stop on the wrong side is said at the stop-loss field as it is typed, a price of 0 at its field; nothing is sent', async () => {
    fake.custody = true;
    Object.assign(userSettings, { orderType: 'bracket-order', tickSize: 0.1, stepSize: 0.001, minQty: 0.001, maxQty: 100 });
    renderPanel(OrderEntryPanel);
    const entry = await screen.findByTestId('order-entry');
    await waitFor(() => expect(within(entry).getByLabelText('Stop-loss')).toBeInTheDocument());
    fireEvent.click(within(entry).getByText('Limit entry'));
    fireEvent.change(within(entry).getByLabelText('Entry price'), { target: { value: '60000' } });
    fireEvent.change(within(entry).getByLabelText('Stop-loss'), { target: { value: '61000' } });
    fireEvent.change(within(entry).getByLabelText('Take-profit 1'), { target: { value: '59000' } });
    expect(within(entry).getByText("A buy's stop-loss goes below the entry (60000)")).toBeInTheDocument();
    expect(within(entry).getByText("A buy's take-profit goes above the entry (60000)")).toBeInTheDocument();
    fireEvent.click(within(entry).getByTestId('place-order'));
    await new Promise((r) => setTimeout(r, 50));
    expect(within(entry).getByTestId('risk-size')).not.toHaveTextContent('Enter a size');
    expect(fake.posted).toEqual([]);

    // A limit at 0: at the price field, in words (never the contract's raw issue list).
    fireEvent.click(within(entry).getByText('Size'));
    Object.assign(userSettings, { orderType: 'limit' });
    await waitFor(() => expect(within(entry).getByLabelText('Price')).toBeInTheDocument());
    fireEvent.change(within(entry).getByLabelText('Price'), { target: { value: '0' } });
    fireEvent.change(within(entry).getByRole('textbox', { name: /^Size/ }), { target: { value: '0.01' } });
    fireEvent.click(within(entry).getByTestId('place-order'));
    expect(await within(entry).findByText('Must be above 0')).toBeInTheDocument();
    expect(fake.calls.some((c) => c.startsWith(`post /v1/trade/${KEY.id}/orders`))).toBe(false);
  });

  it("Order entry shows the account's leverage and margin mode for the pair with no position open (read from the exchange)", async () => {
    const base = `/v1/trade/${KEY.id}`;
    const inner = http.defaults.adapter as AxiosAdapter;
    http.defaults.adapter = async (config) => {
      if (config.url === `${base}/positions`) return ok(config, []);
      if (config.url === `${base}/symbol-settings`) return ok(config, { symbol: String(config.params?.symbol), leverage: '7', marginMode: 'ISOLATED' });
      return inner(config);
    };
    Object.assign(userSettings, { orderType: 'market', leverageMode: 'CROSS', tickSize: 0.1, stepSize: 0.001, minQty: 0.001, maxQty: 100 });
    renderPanel(OrderEntryPanel);
    const entry = await screen.findByTestId('order-entry');
    expect(await within(entry).findByTestId('account-leverage')).toHaveTextContent('On the account: 7× isolated');
    await waitFor(() => expect(within(entry).getByLabelText('Leverage')).toHaveValue('7'));
    expect(within(entry).getByRole('radio', { name: 'Isolated' })).toBeChecked();
  });

  it("Order entry follows the account's leverage and margin mode for the pair (the position's), and refuses a leverage above the instrument's maximum at the field", async () => {
    const base = `/v1/trade/${KEY.id}`;
    const inner = http.defaults.adapter as AxiosAdapter;
    http.defaults.adapter = async (config) => {
      if (config.url === `${base}/positions`) return ok(config, [{ ...position('BTCUSDT'), leverage: '20', marginMode: 'CROSS' }]);
      if (config.url === `${base}/symbol-settings`) return ok(config, { symbol: 'BTCUSDT', leverage: '20', marginMode: 'CROSS' });
      return inner(config);
    };
    Object.assign(userSettings, { orderType: 'market', leverageMode: 'ISOLATED', tickSize: 0.1, stepSize: 0.001, minQty: 0.001, maxQty: 100 });
    renderPanel(OrderEntryPanel);
    const entry = await screen.findByTestId('order-entry');
    expect(await within(entry).findByTestId('account-leverage')).toHaveTextContent('On the account: 20× cross');
    await waitFor(() => expect(within(entry).getByLabelText('Leverage')).toHaveValue('20'));
    expect(within(entry).getByRole('radio', { name: 'Cross' })).toBeChecked();
    fireEvent.change(within(entry).getByLabelText('Leverage'), { target: { value: '999' } });
    fireEvent.blur(within(entry).getByLabelText('Leverage'));
    expect(await within(entry).findByText('At most 125× on BTCUSDT')).toBeInTheDocument();
    expect(within(entry).getByLabelText('Leverage')).toHaveValue('999'); // not silently 125
    expect(within(entry).getByRole('button', { name: 'Set 999×' })).toBeDisabled();
  });
});
