import { expect, test, type Locator, type Page } from '@playwright/test';
import { ApiClient, signInThroughUi, signUpFreshUser } from './helpers';

// The order flow panels (issue 25 §2) on the simulator's binance BTCUSDT: the Order book and the Trades
// tape stream the simulator's book and prints; a click on a level gives Order entry its price; the DOM
// ladder places a limit with a click, moves it by dragging its chip, cancels it with its ✕, and refuses
// a click on the wrong side of the market without sending anything.

let admin: ApiClient;
let registrationWas: boolean;

test.beforeAll(async () => {
  admin = await ApiClient.admin();
  registrationWas = await admin.setFlag('FF_ENABLE_REGISTRATION', true);
});

test.afterAll(async () => {
  await admin.setFlag('FF_ENABLE_REGISTRATION', registrationWas);
  await admin.dispose();
});

const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });
/** The tabset (flexlayout container) holding the tab `name`. */
const tabsetOf = (page: Page, name: string): Locator => page.locator('.flexlayout__tabset_container, .flexlayout__tabset', { has: tab(page, name) }).last();

/** A new trader, signed in, with a simulator key created from Order entry and unlocked (stream connected). */
async function traderWithSimKey(page: Page, label: string): Promise<void> {
  await signInThroughUi(page, await signUpFreshUser(label));
  await tab(page, 'Order entry').click();
  const orderEntry = page.getByTestId('panel-order-entry');
  await orderEntry.getByLabel('Key password for a new simulator key').fill('trade-pass-1');
  await orderEntry.getByRole('button', { name: 'Create a simulator key' }).click();
  const unlock = orderEntry.getByTestId('unlock-key');
  await expect(unlock).toBeVisible({ timeout: 15_000 });
  await unlock.getByLabel('Key password').fill('trade-pass-1');
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(orderEntry.getByTestId('account-stream-status')).toHaveText('connected', { timeout: 15_000 });
}

async function addPanel(page: Page, title: string): Promise<void> {
  await page.getByRole('button', { name: 'Add panel' }).click();
  await page.getByRole('menuitem', { name: new RegExp(`^${title}`) }).click();
  await expect(tab(page, title)).toHaveAttribute('aria-selected', 'true');
}

/** The Order book canvas's `painted` snapshot (src/panels/order-book/order-book-panel.tsx `PaintedBook`). */
interface PaintedBook {
  bids: Array<{ price: string; y: number }>;
  asks: Array<{ price: string; y: number }>;
  spread: string;
}

/** The DOM ladder canvas's `painted` snapshot. */
interface PaintedLadder {
  rows: Array<{ price: string; bid: string; ask: string; y: number }>;
  cols: { 'buy-orders': number; bid: number; price: number; ask: number; 'sell-orders': number };
}

/**
 * What the canvas shows on screen (its pixels, from a screenshot: the canvas is drawn by the paint worker, so the
 * page cannot read it back): how many of its pixels are reddish (asks, sells) and greenish (bids, buys).
 */
async function inkOf(page: Page, canvas: Locator): Promise<{ red: number; green: number }> {
  const png = (await canvas.screenshot()).toString('base64');
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d')!;
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let red = 0;
    let green = 0;
    for (let i = 0; i < d.length; i += 4) {
      const [r, gr, b] = [d[i]!, d[i + 1]!, d[i + 2]!];
      if (r > gr + 60 && r > b + 60) red += 1;
      else if (gr > r + 60 && gr > b - 20) green += 1;
    }
    return { red, green };
  }, png);
}

test('the order book and the trades tape stream the simulated pair; a click on a bid level gives Order entry its price', async ({ page }) => {
  await traderWithSimKey(page, 'order-flow');

  await addPanel(page, 'Order book');
  const book = page.getByTestId('order-book');
  await expect(book).toHaveAttribute('data-status', 'live', { timeout: 20_000 });
  await expect(page.getByTestId('order-book-sim')).toBeVisible();
  // The levels are painted into a canvas; its `painted` getter says what it shows (src/panels/shared/canvas/painted.ts).
  const canvas = book.getByTestId('order-book-canvas');
  await expect(canvas).toHaveAttribute('aria-label', /^Order book/);
  const painted = () => canvas.evaluate((el) => (el as HTMLElement & { painted: PaintedBook }).painted);
  await expect.poll(async () => Math.min((await painted()).bids.length, (await painted()).asks.length), { timeout: 20_000 }).toBeGreaterThan(2);
  // Bids below asks, each side in price order, best first.
  const { bids, asks, spread } = await painted();
  const bidPrices = bids.map((l) => Number(l.price));
  const askPrices = asks.map((l) => Number(l.price));
  expect(Math.max(...bidPrices)).toBeLessThan(Math.min(...askPrices));
  expect(bidPrices).toEqual([...bidPrices].sort((a, b) => b - a));
  expect(askPrices).toEqual([...askPrices].sort((a, b) => a - b));
  expect(spread).toMatch(/^Spread \d/);
  // Asks are drawn above bids.
  expect(asks[0]!.y).toBeLessThan(bids[0]!.y);
  // And they are on screen: red ask prices and green bid prices in the canvas's pixels.
  await expect.poll(async () => Math.min(...Object.values(await inkOf(page, canvas))), { timeout: 10_000 }).toBeGreaterThan(50);

  // A click on the third bid's row: Order entry takes that price (a limit buy there).
  // The book moves as it streams: the row's price and place are read in the same task as the click.
  const price = Number(
    await canvas.evaluate((el) => {
      const level = (el as HTMLElement & { painted: PaintedBook }).painted.bids[2]!;
      const box = el.getBoundingClientRect();
      el.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: box.left + box.width / 2, clientY: box.top + level.y }));
      return level.price;
    }),
  );
  await tab(page, 'Order entry').click();
  const entry = page.getByTestId('panel-order-entry');
  await expect.poll(async () => Number(await entry.getByLabel('Price').inputValue()), { timeout: 10_000 }).toBe(price);

  await addPanel(page, 'Trades tape');
  const tape = page.getByTestId('trades-tape');
  await expect(page.getByTestId('trades-tape-sim')).toBeVisible();
  const prints = () => tape.getByTestId('trades-tape-canvas').evaluate((el) => (el as HTMLElement & { painted: Array<{ side: string; price: string; time: string }> }).painted);
  await expect.poll(async () => (await prints()).length, { timeout: 20_000 }).toBeGreaterThan(0);
  const [newest] = await prints();
  expect(['buy', 'sell']).toContain(newest!.side);
  const tapeInk = await inkOf(page, tape.getByTestId('trades-tape-canvas'));
  expect(tapeInk.red + tapeInk.green).toBeGreaterThan(50);
  expect(newest!.time).toMatch(/^\d\d:\d\d:\d\d\.\d{3}$/);
  expect(Number(newest!.price)).toBeGreaterThan(0);
});

test('the DOM ladder: a click places a limit buy, its chip dragged moves it, its ✕ cancels it; a buy above the market is refused', async ({ page }) => {
  test.setTimeout(120_000);
  await traderWithSimKey(page, 'dom-ladder');
  await addPanel(page, 'DOM ladder');
  // Maximised: rows enough on both sides of the market.
  await tabsetOf(page, 'DOM ladder').getByRole('button', { name: 'Maximize tabset' }).click();
  const ladder = page.getByTestId('panel-dom-ladder');
  await expect(ladder.getByTestId('dom-ladder-status')).toHaveText(/live/i, { timeout: 20_000 });
  await ladder.getByTestId('dom-ladder-quick-sizes').getByRole('button', { name: '0.01', exact: true }).click();
  // Rows of 10 USD (100 ticks): the simulated market moves tens of USD a minute and the ladder re-centres
  // when the mid leaves its rows; on rows of a tick (a few USD in all) the rows read below would be gone.
  await ladder.getByLabel('Row grouping').click();
  await page.getByRole('option', { name: '10', exact: true }).click();
  // The rows are painted into a canvas; its `painted` getter says what it shows, row by row, and where
  // each row and column is (src/panels/dom-ladder/ladder-painter.ts `PaintedLadder`).
  const box = ladder.getByTestId('dom-ladder-rows');
  const canvas = ladder.getByTestId('dom-ladder-canvas');
  const painted = () => canvas.evaluate((el) => (el as HTMLElement & { painted: PaintedLadder }).painted);
  await expect.poll(async () => (await painted()).rows.length).toBeGreaterThan(20);
  const rowStep = async () => {
    const [a, b] = (await painted()).rows;
    return Math.round(Number(a?.price) - Number(b?.price));
  };
  await expect.poll(rowStep).toBe(10);
  // The pointer on the rows holds the ladder's centre (a row does not change its price under a click):
  // the rows read here are the rows clicked below, however the market moves meanwhile.
  await box.hover();
  // Rows top to bottom, high to low; the best bid is the highest row with a bid size; the target four rows under it.
  const { rows, cols } = await painted();
  const prices = rows.map((r) => Number(r.price));
  expect(prices).toEqual([...prices].sort((a, b) => b - a));
  const best = rows.findIndex((r) => r.bid !== '');
  expect(best).toBeGreaterThan(0);
  expect(rows.length - best).toBeGreaterThan(8);
  const targetPrice = rows[best + 4]!.price;
  const at = (row: number, col: keyof PaintedLadder['cols']) => ({ position: { x: cols[col], y: rows[row]!.y } });

  // The ask column of a row below the market: a sell limit there would fill at once — refused, nothing sent.
  let sent = 0;
  page.on('request', (r) => {
    if (/\/v1\/trade\/[^/]+\/orders$/.test(r.url()) && r.method() === 'POST') sent += 1;
  });
  await box.click(at(best + 4, 'ask'));
  await expect(ladder.getByTestId('dom-ladder-message')).toContainText(/\S/);
  expect(sent).toBe(0);

  // A click in the bid column: a limit buy at that row, its chip on the row once the exchange acknowledged it.
  const placed = page.waitForResponse((r) => /\/v1\/trade\/[^/]+\/orders$/.test(r.url()) && r.request().method() === 'POST');
  await box.click(at(best + 4, 'bid'));
  const res = await placed;
  expect(res.status()).toBe(201);
  const order = (await res.json()) as { id: string; price: string; side: string; type: string };
  expect(order.side).toBe('BUY');
  expect(order.type).toBe('LIMIT');
  expect(Number(order.price)).toBe(Number(targetPrice));
  const chip = ladder.locator(`[data-order-id="${order.id}"]`);
  await expect(chip).toBeVisible({ timeout: 15_000 });
  await expect(ladder.locator(`[data-price="${targetPrice}"] [data-order-id="${order.id}"]`)).toBeVisible();
  // The rows have not moved under the pointer meanwhile.
  expect((await painted()).rows[best + 4]!.price).toBe(targetPrice);

  // Dragged two rows down: amended on the exchange, the chip on its new row.
  const lowerPrice = rows[best + 6]!.price;
  const amended = page.waitForResponse((r) => /\/v1\/trade\/[^/]+\/orders\//.test(r.url()) && r.request().method() === 'PATCH');
  await chip.dragTo(box, { targetPosition: at(best + 6, 'buy-orders').position });
  const patch = await amended;
  expect(patch.status()).toBe(200);
  expect(Number(((await patch.json()) as { price: string }).price)).toBe(Number(lowerPrice));
  await expect(ladder.locator(`[data-price="${lowerPrice}"] [data-order-id]`)).toBeVisible({ timeout: 15_000 });

  // Its ✕ cancels it, asking first (confirmCancelOrder is on for a new user).
  const moved = ladder.locator(`[data-price="${lowerPrice}"] [data-order-id]`).first();
  await moved.getByRole('button', { name: /^Cancel the buy limit/ }).click();
  // The dialog (Mantine's modal root carries the test id but has no box of its own).
  const confirm = page.getByRole('dialog', { name: 'Cancel order' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel order' }).click();
  await expect(ladder.locator('[data-order-id]')).toHaveCount(0, { timeout: 15_000 });
  await tabsetOf(page, 'DOM ladder').getByRole('button', { name: 'Restore tabset' }).click();
  await tab(page, 'Orders').click();
  await expect(page.getByTestId('panel-orders').getByTestId('no-orders')).toBeVisible({ timeout: 15_000 });
});
