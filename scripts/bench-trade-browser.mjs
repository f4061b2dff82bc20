// The browser half of `npm run bench:trade` (issue 25 §1): click → acknowledged row in the Orders panel,
// in headless Chromium on the real product (scripts/e2e-server.mjs: the built SPA, simulator, throw-away
// PGlite, the e2e admin). The admin creates a simulator key in Order entry, unlocks it, and places limit
// orders far below the market; each one is timed inside the page from the button's click to the moment
// the Orders table holds one more NEW row (a MutationObserver: no Playwright round trip in the number).
// Budget: p95 < 100 ms.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { loadAdmin, waitForServer } from './bench-workstation.mjs';

const KEY_PASSWORD = 'bench-key-password-1';
export const CLICK_BUDGET_P95_MS = 100;

/** Runs in the page: clicks Order entry's button and resolves with the ms until the Orders table has one more NEW row. */
function clickToRow() {
  const rows = () => [...document.querySelectorAll('[data-testid=orders-table] tbody tr')].filter((tr) => tr.children[1]?.textContent === 'NEW').length;
  const before = rows();
  const button = document.querySelector('[data-testid=panel-order-entry] [data-testid=place-order]');
  if (!button) return Promise.reject(new Error('no place-order button'));
  // The resource timing buffer holds 250 entries by default and then records nothing more.
  performance.clearResourceTimings();
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const observer = new MutationObserver(() => {
      if (rows() > before) {
        const t1 = performance.now();
        observer.disconnect();
        clearTimeout(timer);
        // Where the time went: the requests the click made (resource timing), before, during and after them.
        const requests = performance
          .getEntriesByType('resource')
          .filter((e) => e.startTime >= t0 && /\/v1\//.test(e.name))
          .map((e) => ({ path: new URL(e.name).pathname.replace(/[0-9a-f-]{36}/g, ':id'), start: e.startTime - t0, end: e.responseEnd - t0 }));
        resolve({ ms: t1 - t0, requests });
      }
    });
    const timer = setTimeout(() => {
      observer.disconnect();
      const statuses = [...document.querySelectorAll('[data-testid=orders-table] tbody tr')].map((tr) => tr.children[1]?.textContent);
      reject(new Error(`no acknowledged row within 10 s (${before} NEW before; rows now: ${statuses.join(', ')})`));
    }, 10_000);
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    button.click();
  });
}

async function unlockSimulatorKey(page) {
  const entry = page.getByTestId('panel-order-entry');
  await entry.getByLabel('Key password for a new simulator key').fill(KEY_PASSWORD);
  await entry.getByRole('button', { name: 'Create a simulator key' }).click();
  const unlock = entry.getByTestId('unlock-key');
  await unlock.waitFor({ timeout: 30_000 });
  await unlock.getByLabel('Key password').fill(KEY_PASSWORD);
  await unlock.getByLabel('Remember on this device').check();
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await entry.getByTestId('account-stream-status').filter({ hasText: 'connected' }).waitFor({ timeout: 30_000 });
}

async function measureClicks(page, orders) {
  const entry = page.getByTestId('panel-order-entry').getByTestId('order-entry');
  await entry.getByLabel('Order type').click();
  await page.getByRole('option', { name: 'Limit', exact: true }).click();
  const body = page.getByTestId('chart-body').first();
  await page.waitForFunction(() => document.querySelector('[data-testid=chart-body]')?.hasAttribute('data-last-price'), null, { timeout: 60_000 });
  const last = Number(await body.getAttribute('data-last-price'));
  const price = (Math.round((last * 0.5) / 0.1) * 0.1).toFixed(1);
  await page.getByRole('tab', { name: 'Orders' }).first().click();
  const times = [];
  const phases = [];
  for (let i = -3; i < orders; i++) {
    // The form is filled by Playwright outside the timing (a trader's fields are filled before the click).
    await entry.getByLabel('Price').fill(price);
    await entry.getByLabel(/^Size/).fill('0.010');
    // The button is busy until the previous order settled (Mantine's loading state): a trader waits too.
    await page.waitForFunction(() => {
      const b = document.querySelector('[data-testid=panel-order-entry] [data-testid=place-order]');
      return b && !b.disabled && !b.hasAttribute('data-loading');
    });
    const r = await page.evaluate(clickToRow);
    if (i >= 0) times.push(r.ms);
    if (i >= 0) phases.push(r);
  }
  // The click's own order request: from the click to its start (the page's work before it), its round trip,
  // and from its answer to the row (the page's work after it); the other requests the click made, by path.
  const q = (l, p) => (l.length ? [...l].sort((a, b) => a - b)[Math.min(l.length - 1, Math.floor(p * l.length))] : NaN);
  const post = phases.map((r) => r.requests.find((x) => /\/orders$/.test(x.path))).filter(Boolean);
  const fmt = (l) => `p50 ${q(l, 0.5).toFixed(1)} / p95 ${q(l, 0.95).toFixed(1)} ms`;
  console.log(`  click → order request start: ${fmt(post.map((x) => x.start))}`);
  console.log(`  order request (start → answer): ${fmt(post.map((x) => x.end - x.start))}`);
  console.log(`  answer → row: ${fmt(phases.map((r, k) => r.ms - (post[k]?.end ?? NaN)).filter(Number.isFinite))}`);
  const others = new Map();
  for (const r of phases) for (const x of r.requests) others.set(x.path, (others.get(x.path) ?? 0) + 1);
  console.log(`  requests between click and row (of ${phases.length} clicks): ${[...others].map(([k, v]) => `${k} ×${v}`).join(', ')}`);
  await page.getByTestId('panel-orders').getByRole('button', { name: 'Cancel all BTCUSDT' }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  return times.sort((a, b) => a - b);
}

/** Starts the e2e server on `port`, drives the workstation and returns the sorted click → row times. */
export async function clickToRowScenario({ root, port, orders }) {
  const base = `http://127.0.0.1:${port}`;
  const log = [];
  const child = spawn(process.execPath, [path.join(root, 'scripts', 'e2e-server.mjs')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), LOG_LEVEL: 'warn' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => log.push(String(d)));
  child.stderr.on('data', (d) => log.push(String(d)));
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'] });
  try {
    await waitForServer(base, child, 240_000);
    const { E2E_ADMIN } = await loadAdmin(root);
    const page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
    page.on('pageerror', (e) => console.error(`  page error: ${e.message}`));
    await page.goto(`${base}/login`);
    await page.getByLabel('Email').fill(E2E_ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/trade$/);
    await unlockSimulatorKey(page);
    try {
      return await measureClicks(page, orders);
    } catch (error) {
      await page.screenshot({ path: path.join(root, 'tests', 'bench', '.out', 'bench-trade-failed.png') });
      throw error;
    }
  } catch (error) {
    console.error(log.join('').slice(-2000));
    throw error;
  } finally {
    await browser.close();
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}
