/**
 * Test support for restart.test.ts: a standalone simulator on a real database (a PGlite data
 * directory or a PostgreSQL URL), printing `{"port":n}` when it listens. The test kills it with
 * SIGKILL — no graceful shutdown, no engine flush — and starts another on the same database.
 * Usage: node --import tsx restart-child.ts <pglite-dir | postgres://…>
 */
import websocket from '@fastify/websocket';
import Fastify from 'fastify';
import { openDatabase } from '../../db/client';
import simPlugin from '../index';

const target = process.argv[2];
if (!target) throw new Error('usage: restart-child.ts <pglite-dir | postgres-url>');
const handle = target.startsWith('postgres') ? await openDatabase({ driver: 'postgres', url: target, poolSize: 2 }) : await openDatabase({ driver: 'pglite', dataDir: target });
await handle.migrate();
const app = Fastify({ logger: false });
await app.register(websocket);
// One sealing key for every child on this database (a key minted before the kill opens after it).
await app.register(simPlugin, { prefix: '/sim', db: handle.db, pushIntervalMs: 50, sealingKey: 'restart-child-sealing-key-of-the-test-only' });
await app.listen({ port: 0, host: '127.0.0.1' });
const addr = app.server.address();
process.stdout.write(`${JSON.stringify({ port: typeof addr === 'object' && addr ? addr.port : 0 })}\n`);
