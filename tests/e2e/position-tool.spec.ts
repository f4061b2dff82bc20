import { expect, test, type Page } from '@playwright/test';
import { ApiClient, roomAround, signInThroughUi, signUpFreshUser, withFlags, yForPrice } from './helpers';

// The chart's position tool (issue 25 §3): a trader with an unlocked simulator key clicks the stop and
// then the entry on the chart; the card sizes the position from the risk %, shows each target's R,
// and "Place" sends the bracket through the same consent as Order entry's; the entry rests on the
// exchange and its stop-loss and take-profits are planned for when it fills.

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
const inPanel = (page: Page, panel: string, testId: string) => page.getByTestId(`panel-${panel}`).getByTestId(testId);

/** Creates a simulator key for the exchange the workstation shows, from Order entry, and unlocks it (stream connected). */
async function createSimKey(page: Page): Promise<void> {
  await tab(page, 'Order entry').click();
  const orderEntry = page.getByTestId('panel-order-entry');
  await orderEntry.getByLabel('Key password for a new simulator key').fill('trade-pass-1');
  await orderEntry.getByRole('button', { name: 'Create a simulator key' }).click();
  const unlock = inPanel(page, 'order-entry', 'unlock-key');
  await expect(unlock).toBeVisible({ timeout: 15_000 });
  await unlock.getByLabel('Key password').fill('trade-pass-1');
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(inPanel(page, 'order-entry', 'account-stream-status')).toHaveText('connected', { timeout: 15_000 });
}

test('the position tool: click the stop, click the entry, the card sizes it from risk, Place sends the bracket', async ({ page }) => {
  test.setTimeout(120_000);
  await withFlags(admin, { FF_ENABLE_DRAWING_TOOL: true }, async () => {
    await signInThroughUi(page, await signUpFreshUser('position-tool'));
    const body = page.getByTestId('chart-body').first();
    await expect(body).toHaveAttribute('data-status', 'ready', { timeout: 20_000 });
    await createSimKey(page);

    // A position resting away from the market on the side with more room: a long below it (a buy
    // limit under the price) or a short above it; the stop beyond the entry, both on screen.
    const box = (await body.boundingBox())!;
    const x = box.x + (box.width - 90) * 0.35;
    const live = Number(await body.getAttribute('data-last-price'));
    const { dir, edge } = await roomAround(page, body, x, live);
    const entryPrice = live + (edge - live) * 0.25;
    const stopPrice = live + (edge - live) * 0.75;
    const entryY = await yForPrice(page, body, entryPrice, x);
    const stopY = await yForPrice(page, body, stopPrice, x);

    const toolbar = page.getByTestId('drawing-toolbar').filter({ visible: true });
    await toolbar.getByTestId('position-tool-button').click();
    await expect(toolbar.getByTestId('position-tool-button')).toHaveAttribute('aria-pressed', 'true');
    const card = page.getByTestId('position-card');
    await expect(card).toContainText('Click the stop, then the entry');

    await page.mouse.click(x, stopY);
    await page.mouse.click(x + 30, entryY);

    await expect(card.getByTestId('position-side')).toHaveText(dir === -1 ? 'Long' : 'Short');
    const entryText = Number(await card.getByTestId('position-entry').textContent());
    const stopText = Number(await card.getByTestId('position-stop').textContent());
    // Where it was clicked, give or take a pixel of price (the scale follows the live market).
    const distance = Math.abs(stopPrice - entryPrice);
    expect(Math.abs(entryText - entryPrice)).toBeLessThan(distance * 0.1);
    expect(Math.abs(stopText - stopPrice)).toBeLessThan(distance * 0.1);
    await expect(card.getByTestId('position-size')).toHaveText(/^\d+(\.\d+)?$/);
    await expect(card.getByTestId('position-target-1')).toContainText('· 1R');
    await expect(card.getByTestId('position-target-3')).toContainText('· 3R');
    await expect(card.getByTestId('position-place')).toBeEnabled();
    const size = (await card.getByTestId('position-size').textContent())!;

    // Place: the key's first bracket asks for the server's custody, then the bracket goes out.
    const placed = page.waitForResponse((r) => /\/v1\/trade\/[^/]+\/brackets$/.test(r.url()) && r.request().method() === 'POST');
    await card.getByTestId('position-place').click();
    const consent = page.getByRole('dialog', { name: /^Let the server guard brackets with / });
    await expect(consent).toContainText('cancels what is left of the bracket when its position closes');
    await consent.getByRole('button', { name: 'Allow', exact: true }).click();
    const response = await placed;
    expect(response.status()).toBe(201);
    const sent = response.request().postDataJSON() as { side: string; qty: string; entry: { type: string; price: string }; stopLoss: { triggerPrice: string }; takeProfits: unknown[] };
    expect(sent).toMatchObject({ side: dir === -1 ? 'BUY' : 'SELL', entry: { type: 'LIMIT' } });
    expect(Number(sent.qty)).toBe(Number(size));
    expect(Number(sent.entry.price)).toBe(entryText);
    expect(Number(sent.stopLoss.triggerPrice)).toBe(stopText);
    expect(sent.takeProfits).toHaveLength(3);
    const bracket = (await response.json()) as { orders: Array<{ role: string }>; planned: Array<{ role: string; triggerPrice: string }> };
    expect(bracket.orders.map((o) => o.role)).toEqual(['entry']);
    expect(bracket.planned.map((l) => l.role)).toEqual(['stop-loss', 'take-profit', 'take-profit', 'take-profit']);
    await expect(card).toHaveCount(0);
    await expect(toolbar.getByTestId('position-tool-button')).toHaveAttribute('aria-pressed', 'false');

    // The entry rests in Orders, its stop-loss and take-profits said as what goes on when it fills.
    await tab(page, 'Orders').click();
    const orders = inPanel(page, 'orders', 'orders-table');
    await expect(orders.getByRole('row').filter({ hasText: 'entry' })).toHaveCount(1, { timeout: 15_000 });
    await expect(orders.getByTestId('planned-legs')).toContainText(`then SL ${Number(bracket.planned[0]!.triggerPrice)} · TP`, { timeout: 15_000 });
  });
});
