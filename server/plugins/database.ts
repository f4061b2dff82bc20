import { AsyncResource } from 'node:async_hooks';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { DatabaseStatus } from '../db/outage';
import { databaseScope } from '../db/pool-guard';

declare module 'fastify' {
  interface FastifyInstance {
    /** The database's state and its outage log (`db/outage.ts`); `/v1/health` and the error handler use it. */
    dbStatus: DatabaseStatus;
  }
}

const scopeResource = Symbol('ct.databaseScopeResource');
type ScopedRequest = { [scopeResource]?: AsyncResource };

/**
 * Database resilience for the whole app: the outage tracker (`app.dbStatus`), and each request's
 * database calls run in the scope of its route, so one route cannot hold the whole PostgreSQL pool
 * (`db/pool-guard.ts`). Register before the routes.
 */
export function registerDatabaseGuard(app: FastifyInstance): void {
  const status = new DatabaseStatus({
    log: app.log,
    ping: () => app.db.execute(sql`select 1`),
    pingTimeoutMs: app.config.DB_HEALTH_TIMEOUT_MS,
  });
  app.decorate('dbStatus', status);
  app.addHook('onClose', async () => status.close());

  // The scope must survive body parsing, which resumes in the socket's async context: the same
  // AsyncResource re-entered in preValidation (the pattern of @fastify/request-context).
  app.addHook('onRequest', (req, _reply, done) => {
    const scope = `${req.method} ${req.routeOptions.url ?? '(no route)'}`;
    databaseScope.run(scope, () => {
      const resource = new AsyncResource('ct-database-scope');
      (req as ScopedRequest)[scopeResource] = resource;
      resource.runInAsyncScope(done, req.raw);
    });
  });
  app.addHook('preValidation', (req, _reply, done) => {
    const resource = (req as ScopedRequest)[scopeResource];
    if (resource) resource.runInAsyncScope(done, req.raw);
    else done();
  });
}
