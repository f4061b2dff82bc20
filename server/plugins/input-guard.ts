import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from '../lib/http-error';

/**
 * Input no route can store, refused before any route sees it (issue "Hardening": bad input
 * answers 4xx, never 500). Every `/v1` request's body, query string, path params and headers
 * pass through here, after authentication and before the route's zod schema:
 *
 * - **NUL** (`\u0000`, which `JSON.parse` makes of the escape): PostgreSQL text and jsonb
 *   cannot hold it, so a note or a search containing one failed in the database.
 * - **Lone surrogates** (`"\ud800"` survives `JSON.parse` as an unpaired UTF-16 code unit): not
 *   Unicode at all; jsonb refuses them and text columns would silently store U+FFFD instead.
 * - **Nesting past {@link JSON_MAX_DEPTH}** levels: a 5,000-deep layout overflowed the stack. No
 *   body of this API comes near the cap (a settings PATCH with a layout is about 15 deep). The
 *   walk is iterative, so the guard itself has no depth limit; size stays capped by BODY_LIMIT.
 *
 * The answer is the error plugin's shape for validation errors:
 * `400 { message: 'Invalid <field.path>: …', fields: { '<field.path>': … } }`.
 */
export const JSON_MAX_DEPTH = 64;

/** Where a problem was found: the path names the field as the validation errors do (`fills.3.note`). */
interface Problem {
  path: string;
  reason: string;
}

const REASONS = {
  nul: 'Must not contain NUL (\\u0000) characters',
  surrogate: 'Must be valid Unicode text (it contains an unpaired surrogate)',
  depth: `Nested too deeply: at most ${JSON_MAX_DEPTH} levels`,
} as const;

// Lone surrogates: a high one not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return REASONS.nul;
  if (LONE_SURROGATE.test(text)) return REASONS.surrogate;
  return null;
}

/** A path segment fit to print: the bad characters of a bad key written as escapes. */
const printable = (segment: string) =>
  [...segment].map((c) => (c.length === 1 && (c < ' ' || (c >= '\ud800' && c <= '\udfff')) ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c)).join('');

/** The first bad string (value or key) or over-deep container in `value`, walked without recursion. */
export function findInputProblem(value: unknown, maxDepth = JSON_MAX_DEPTH): Problem | null {
  const stack: { v: unknown; path: string[] }[] = [{ v: value, path: [] }];
  while (stack.length) {
    const { v, path } = stack.pop() as { v: unknown; path: string[] };
    if (typeof v === 'string') {
      const reason = textProblem(v);
      if (reason) return { path: path.map(printable).join('.'), reason };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    // Name the field the client sent, not the 64th level inside it.
    if (path.length >= maxDepth) return { path: path.slice(0, 2).map(printable).join('.'), reason: REASONS.depth };
    const entries = Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i];
      const reason = textProblem(key);
      if (reason) return { path: [...path, key].map(printable).join('.'), reason };
      stack.push({ v: child, path: [...path, key] });
    }
  }
  return null;
}

const WHERE = { body: 'request body', query: 'query string', params: 'path', headers: 'headers' } as const;

function check(req: FastifyRequest): void {
  const sources = { params: req.params, query: req.query, headers: req.headers, body: req.body } as const;
  for (const [source, value] of Object.entries(sources) as [keyof typeof WHERE, unknown][]) {
    const problem = findInputProblem(value);
    if (!problem) continue;
    const message = problem.path ? `Invalid ${problem.path}: ${problem.reason}` : `Invalid ${WHERE[source]}: ${problem.reason}`;
    throw badRequest(message, problem.path ? { [problem.path]: problem.reason } : undefined);
  }
}

/** Registers the guard for every `/v1` route (the simulator under `/sim` imitates exchanges and keeps their rules). */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (req) => {
    if (req.routeOptions.url?.startsWith('/v1/')) check(req);
  });
}
