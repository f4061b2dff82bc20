import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The rooms of issue 23 §3: every folder's README says what it "May import", and
 * eslint-plugin-boundaries (eslint.config.js, `rooms` and `roomPolicies`) keeps it. These cases lint
 * one import from a file of a room and say whether the rule refuses it; the last test makes a README
 * with a "May import" line and no room of its own in the lint config fail.
 */
const root = process.cwd();
const eslint = new ESLint({ cwd: root });
const refusals = async (filePath: string, code: string) =>
  (await eslint.lintText(code, { filePath }))[0].messages.filter((m) => m.ruleId === 'boundaries/dependencies').map((m) => m.message);

describe('room boundaries lint rule', () => {
  it.each([
    // src/panels/README.md: panels never import each other (tests neither), nor workstation/
    ['src/panels/chart/example.ts', "import { previewOrder } from '../trading/order-math';"],
    ['src/panels/chart/example.test.ts', "import { previewOrder } from '../trading/order-math';"],
    ['src/panels/trading/example.tsx', "export { ChartPanel } from '../chart/chart-panel';"],
    ['src/panels/favorites/example.ts', "import { buildModel } from '../workstation/layout-model';"],
    ['src/panels/workstation/example.ts', "import { splitQty } from '../trading/order-math';"],
    ['src/panels/shared/example.ts', "import { previewOrder } from '../trading/order-math';"],
    // src/panels/chart/README.md: engine values only through the dynamic import
    ['src/panels/chart/example.ts', "import { createChart } from '../../engine';"],
    // src/engine/README.md: no React, nothing from the app
    ['src/engine/model/example.ts', "import { useState } from 'react';"],
    ['src/engine/model/example.ts', "import { userSettings } from '../../state/user-settings';"],
    ['src/engine/model/example.ts', "export const load = () => import('../../state/user-settings');"],
    ['src/engine/model/example.ts', "import { Graphics } from 'pixi.js';"],
    ['src/engine/core/example.test.ts', "import { userSettings } from '../../state/user-settings';"],
    // src/state/README.md: valtio/vanilla, never React's valtio
    ['src/state/example.ts', "import { useSnapshot } from 'valtio';"],
    ['src/state/example.ts', "import { http } from '../api/client';"],
    // src/api, src/ui, src/admin
    ['src/api/example.ts', "import { userSettings } from '../state/user-settings';"],
    ['src/api/market/example.ts', "import { isExchangeId } from '../contracts/common';"],
    ['src/ui/example.ts', "import { userSettings } from '../state/user-settings';"],
    ['src/admin/example.ts', "import { AccountPage } from '../settings/account-page';"],
    ['src/settings/example.ts', "import { Workstation } from '../panels';"],
    ['src/panels/example.ts', "import { routes } from '../app/routes';"],
    // server/README.md: from src/ only src/api/contracts (in tests too)
    ['server/routes/example.ts', "import { userSettings } from '../../src/state/user-settings';"],
    ['server/services/example.ts', "import { show } from '../../src/panels/shared/trading/format';"],
    ['server/services/example.test.ts', "import { http } from '../../src/api/client';"],
    ['server/example.ts', "import { createApiClient } from '../src/api/client';"],
    // server/exchanges/README.md: node:*, src/api/contracts only
    ['server/exchanges/example.ts', "import { openApiKey } from '../services/api-keys';"],
    ['server/exchanges/binance/example.ts', "import { db } from '../../db/client';"],
    // server/lib, server/db, server/boot
    ['server/lib/example.ts', "import { readFileSync } from 'node:fs';"],
    ['server/lib/example.ts', "import { HttpError } from '../routes/v1/trade';"],
    ['server/db/example.ts', "import { recordFills } from '../services/fills';"],
    ['server/boot/example.ts', "import { z } from 'zod';"],
    // server/services: not routes or plugins; its folders as their READMEs say
    ['server/services/example.ts', "import { tradeRoutes } from '../routes/v1/trade';"],
    ['server/services/example.ts', "import { xsrf } from '../plugins/xsrf';"],
    ['server/services/jobs/example.ts', "import { tradeRoutes } from '../../routes/v1/trade';"],
    ['server/services/scanner/example.ts', "import { alerts } from '../../db/schema-alerts';"],
    ['server/services/scanner/example.ts', "import { recordFills } from '../fills';"],
    ['server/services/trading/example.ts', "import { JobRunner } from '../jobs/runner';"],
    ['server/services/trading/example.ts', "import { SimMarket } from '../../sim';"],
    ['server/services/events/example.ts', "import { deleteApiKey } from '../api-keys';"],
    ['server/services/events/example.ts', "import { JobRunner } from '../jobs/runner';"],
    // server/routes: never the tables, never the composition root
    ['server/routes/v1/example.ts', "import { fills } from '../../db/schema-fills';"],
    ['server/routes/v1/example.ts', "import { tradingPlugin } from '../../compose/trading';"],
    // server/sim: nothing from routes or services; paper/engine nothing outside itself
    ['server/sim/example.ts', "import { recordFills } from '../services/fills';"],
    ['server/sim/paper/engine/example.ts', "import { catalogue } from '../../market/catalogue';"],
    ['server/sim/paper/engine/example.ts', "import Fastify from 'fastify';"],
    // tests/: the harness knows the engine only; the bench its index only
    ['tests/harness/example.ts', "import { userSettings } from '../../src/state/user-settings';"],
    ['tests/bench/example.ts', "import { buildScene } from '../../src/engine/model/scene';"],
  ])('refuses, in %s: %s', async (file, code) => {
    expect(await refusals(file, code)).toHaveLength(1);
  });

  it.each([
    ['src/panels/chart/example.ts', "import { show } from '../shared/trading/format';"],
    ['src/panels/workstation/example.ts', "import { useTradingAccount } from '../shared/trading/use-trading-account';"],
    ['src/panels/chart/example.ts', "import type { ChartEngine } from '../../engine';"],
    ['src/panels/chart/example.ts', "export const load = () => import('../../engine');"],
    ['src/panels/chart/example.test.ts', "import { buildModel } from '../workstation/layout-model';"],
    ['src/panels/registry.ts', "import { ChartPanel } from './chart/chart-panel';"],
    ['src/panels/trading/example.ts', "import { userSettings } from '../../state/user-settings';"],
    ['src/engine/render/example.ts', "import { Graphics } from 'pixi.js';"],
    ['src/engine/core/example.test.ts', "import { ohlcv } from '../../../tests/harness/ohlcv';"],
    ['src/state/example.ts', "import { proxy } from 'valtio/vanilla';"],
    ['src/api/market/example.ts', "import type { ExchangeId } from '../contracts/common';"],
    ['src/api/market/example.test.ts', "import { SimMarket } from '../../../server/sim';"],
    ['src/admin/example.ts', "import { ApiKeysTable } from '../settings/api-keys/api-keys-table';"],
    ['server/routes/example.ts', "import { isExchangeId } from '../../src/api/contracts/common';"],
    ['server/exchanges/example.ts', "import { createHmac } from 'node:crypto';"],
    ['server/exchanges/example.ts', "import { z } from 'zod';"],
    ['server/services/scanner/example.ts', "import { EXCHANGES } from '../../exchanges/registry';"],
    ['server/services/trading/example.ts', "import { recordFills } from '../fills';"],
    ['server/services/jobs/example.ts', "import { placeBracket } from '../trading/brackets';"],
    ['server/services/example.ts', "import { EventBus } from './events/bus';"],
    ['server/services/events/example.ts', "import type { Db } from '../../db/client';"],
    ['server/services/example.test.ts', "import { createTestApp } from '../test/helper';"],
    ['server/sim/paper/example.ts', "import { paperAccounts } from '../../db/schema-paper';"],
    ['server/compose/example.ts', "import simPlugin from '../sim';"],
    ['server/compose/example.ts', "import { tradeRoutes } from '../routes/v1/trade';"],
  ])('allows, in %s: %s', async (file, code) => {
    expect(await refusals(file, code)).toEqual([]);
  });

  it('has a room for every README that says what its folder may import', async () => {
    const readmes: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(path.join(root, dir), { withFileTypes: true })) {
        const rel = `${dir}/${e.name}`;
        if (e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.')) walk(rel);
        else if (e.name === 'README.md' && /May import/.test(readFileSync(path.join(root, rel), 'utf8'))) readmes.push(rel);
      }
    };
    ['src', 'server', 'tests', 'scripts'].forEach(walk);
    expect(readmes.length).toBeGreaterThan(20);

    const config = await eslint.calculateConfigForFile('src/app/app.tsx');
    const elements = config.settings['boundaries/elements'];
    const policies: Array<{ from?: { element?: { type?: string | string[] } } }> = config.rules['boundaries/dependencies'][1].policies;
    const withPolicy = new Set(policies.flatMap((p) => p.from?.element?.type ?? []));
    // The plugin's own matcher (its dependency, CommonJS): which room a file of the folder falls in.
    const { Elements } = createRequire(import.meta.url)('@boundaries/elements');
    const matcher = new Elements({ rootPath: root }).getMatcher({ elements, elementsSingleMatch: true });

    const missing = readmes.flatMap((readme) => {
      const dir = path.dirname(readme);
      const room = matcher.describeElement(path.join(root, dir, 'probe.ts'));
      if (room.path !== dir) return [`${readme}: no room of its own in eslint.config.js (falls in ${room.path ?? 'none'})`];
      if (!withPolicy.has(room.types[0])) return [`${readme}: room "${room.types[0]}" has no policy in eslint.config.js`];
      return [];
    });
    expect(missing).toEqual([]);
  });
});
