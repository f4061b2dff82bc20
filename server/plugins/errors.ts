import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { classifyDatabaseError, type DatabaseFailure } from '../db/errors';
import { HttpError } from '../lib/http-error';
import { decodes } from '../../src/api/contracts/trading';

type ValidationIssue = { instancePath: string; message?: string; keyword?: string; params?: Record<string, unknown> };

/** `body.riskOptions.0` style names for the fields of a validation error. */
function fieldsOf(issues: ValidationIssue[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const path = issue.instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
    const message = issue.message ?? 'Invalid value';
    // Unknown keys have no path of their own; zod lists them in `keys`.
    const keys = issue.keyword === 'unrecognized_keys' && Array.isArray(issue.params?.keys) ? (issue.params.keys as unknown[]) : null;
    if (keys?.length) {
      for (const k of keys) fields[path ? `${path}.${String(k)}` : String(k)] ??= 'Unknown field';
    } else {
      fields[path || ''] ??= message;
    }
  }
  return fields;
}

/**
 * A database that is unreachable or out of time is a temporary condition of the server, not a bug:
 * 503 (not 504 — this server is not a gateway and the client's request did reach its origin; 503 is
 * the status Retry-After is defined for, which load balancers and HTTP clients read as "send the
 * same request again later"). Unreachable waits longer than contention (a lock or statement timeout).
 */
export const DATABASE_RETRY_AFTER_SECONDS: Record<DatabaseFailure['kind'], number> = { unavailable: 5, timeout: 2 };
const DATABASE_MESSAGES: Record<DatabaseFailure['kind'], string> = {
  unavailable: 'The database is unavailable: try again in a few seconds',
  timeout: 'The database is busy: try again in a moment',
};

/**
 * One error shape for the whole API (DESIGN §5): `{ message }` plus `fields` for validation, the
 * right status, never a stack trace or a query.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | HttpError | Error, req, reply) => {
    if (err instanceof HttpError) {
      return reply.code(err.status).send(err.fields ? { message: err.message, fields: err.fields } : { message: err.message });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const all = fieldsOf(err.validation);
      const [name, first] = Object.entries(all)[0] ?? ['', 'Invalid request'];
      const where = (err as FastifyError).validationContext;
      // An issue about the whole body (e.g. "Nothing to update") has no field to name.
      const fields = Object.fromEntries(Object.entries(all).filter(([k]) => k !== ''));
      const message =
        name === ''
          ? first
          : first === 'Unknown field'
            ? `Invalid ${where === 'querystring' ? 'query' : 'request'}: unknown field ${name}`
            : `Invalid ${name}: ${first}`;
      return reply.code(400).send(Object.keys(fields).length ? { message, fields } : { message });
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ issues: err.cause.issues, url: err.url }, 'response does not match its schema');
      return reply.code(500).send({ message: 'Internal server error' });
    }
    const status = (err as FastifyError).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, body too large, unsupported media type, rate limit).
      return reply.code(status).send({ message: err.message });
    }
    const db = classifyDatabaseError(err);
    if (db) {
      // One warn per outage (or per burst of timeouts) from the tracker; this request only a debug line.
      const tracker = app.hasDecorator('dbStatus') ? app.dbStatus : null;
      if (db.kind === 'unavailable') tracker?.unavailable(db, req.log, Date.now() - reply.elapsedTime);
      else tracker?.timedOut(db, req.log);
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS[db.kind]));
      return reply.code(503).send({ message: DATABASE_MESSAGES[db.kind] });
    }
    // A drizzle error's message holds the SQL and its parameters (password hashes, tokens): log the cause only.
    const cause = (err as { cause?: unknown }).cause;
    req.log.error({ err: cause instanceof Error ? cause : { name: err.name, message: err.message.split('\nparams:')[0] } }, 'request failed');
    return reply.code(500).send({ message: 'Internal server error' });
  });
}


/**
 * The path parameter(s) holding a malformed percent-escape: each undecodable segment is swapped for a
 * marker, the router is asked which route and params that path matches, and the params holding a
 * marker are the culprits (none when no route matches, or only a wildcard does).
 */
function malformedParams(app: FastifyInstance, method: string, url: string): string[] {
  const [path] = url.split('?');
  const markers = new Set<string>();
  const probe = path
    .split('/')
    .map((segment, i) => {
      if (decodes(segment)) return segment;
      const marker = `malformed-${i}`;
      markers.add(marker);
      return marker;
    })
    .join('/');
  const found = app.findRoute({ method: method as HTTPMethods, url: probe });
  return Object.entries((found?.params ?? {}) as Record<string, string>)
    .filter(([name, value]) => name !== '*' && markers.has(value))
    .map(([name]) => name);
}

/**
 * Fastify's own refusals before routing ends (`frameworkErrors`), in the API's one shape. A URL whose
 * percent-encoding does not decode (`/v1/trade/{key}/orders/%E0%A4%A`, `…/orders/%`) is a 400 naming
 * the path parameter it sits in, as any other bad input is; a parameter longer than the router takes
 * keeps Fastify's status (414).
 */
export function answerFrameworkError(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  if (err.code === 'FST_ERR_BAD_URL') {
    const names = malformedParams(req.server, req.method, req.url);
    const problem = 'malformed percent-encoding (a % must start a valid UTF-8 escape such as %20)';
    if (!names.length) {
      void reply.code(400).send({ message: `Invalid URL: ${problem}` });
      return;
    }
    void reply.code(400).send({ message: `Invalid ${names[0]}: ${problem}`, fields: Object.fromEntries(names.map((n) => [n, problem])) });
    return;
  }
  const status = typeof err.statusCode === 'number' && err.statusCode >= 400 ? err.statusCode : 400;
  void reply.code(status).send({ message: err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'Invalid URL: a path parameter is too long' : err.message });
}
