/**
 * The zod that code bundled into the Lambda functions uses: `zod/mini`, whose schemas keep their
 * methods on shared prototypes and whose functional API lets esbuild drop what we do not call,
 * so a function's cold start does not pay for classic zod. Import it as
 * `import * as z from '<path>/lib/zod.js'`, never `zod` or `zod/mini` directly (biome.json
 * refuses those under lib/ and functions/).
 *
 * Two things classic zod does on its own are done here with zod's public API, so that nothing
 * a caller or an operator reads changes:
 * - English issue messages: zod/mini ships no locale and would say "Invalid input". The call
 *   below runs whenever this module is in a bundle (test/infra/bundles.test.ts checks the built
 *   bundles), because every function parses through the `parse`/`safeParse` defined here.
 * - Errors named `ZodError`: zod/mini's are `$ZodError`, and the name reaches log lines and
 *   Lambda's error type. `parse` and `safeParse` below replace zod/mini's exports of the same
 *   names (a module's own exports win over `export *`).
 *
 * One internal remains, `$ZodObjectJIT` (below), and zod's version is pinned exactly for it;
 * test/lib/zod-internals.test.ts fails when an upgrade changes what it relies on.
 */
import * as mini from 'zod/mini';
import { ZodMiniType } from 'zod/mini';
import { $constructor, $ZodObjectJIT, type $ZodType } from 'zod/v4/core';
import en from 'zod/v4/locales/en.js';

mini.config(en());

export * from 'zod/mini';

function named<E extends Error>(error: E): E {
  error.name = 'ZodError';
  return error;
}

/**
 * Validates `value`, answering the output or throwing a `ZodError` that lists the issues.
 *
 * @example
 * const task = z.parse(SiteMessage, JSON.parse(body));
 */
export function parse<T extends $ZodType>(schema: T, value: unknown): mini.output<T> {
  const result = mini.safeParse(schema, value);
  if (result.success) return result.data;
  throw named(result.error);
}

/**
 * Validates `value` without throwing: `{ success: true, data }` or `{ success: false, error }`.
 *
 * @example
 * const result = z.safeParse(WebhookRequest, body);
 */
export const safeParse: typeof mini.safeParse = (schema, value, ctx) => {
  const result = mini.safeParse(schema, value, ctx);
  if (!result.success) named(result.error);
  return result;
};

/**
 * zod/mini's object schema with classic zod's compiled parser: zod/mini interprets every object
 * field by field, several times slower on a status page (docs/performance.md), while classic
 * zod's objects compile a parser on first use, which costs nothing at cold start. zod's public
 * `z.compile` is eager (a cold-start cost) and refuses the `z.lazy` page schemas, hence this
 * internal. Same name and traits as zod/mini's, so `instanceof` and introspection still work.
 */
const ZodMiniObjectJIT = $constructor('ZodMiniObject', (inst: mini.ZodMiniObject, def) => {
  $ZodObjectJIT.init(inst, def);
  ZodMiniType.init(inst, def);
  mini.util.installLazyProp(inst, 'shape', (self) => self._zod.def.shape, false);
}) as unknown as typeof mini.ZodMiniObject;

/** @example const Point = z.object({ x: z.number(), y: z.number() }); */
export const object: typeof mini.object = ((shape, params) =>
  new ZodMiniObjectJIT({
    type: 'object',
    shape: shape ?? {},
    ...mini.util.normalizeParams(params),
  })) as typeof mini.object;

/** Unknown keys are refused. @example z.strictObject({ gsm: z.string() }) */
export const strictObject: typeof mini.strictObject = ((shape, params) =>
  new ZodMiniObjectJIT({
    type: 'object',
    shape,
    catchall: mini.never(),
    ...mini.util.normalizeParams(params),
  })) as typeof mini.strictObject;

/** Unknown keys are kept (the service adds fields over time). @example z.looseObject({ Count: z.number() }) */
export const looseObject: typeof mini.looseObject = ((shape, params) =>
  new ZodMiniObjectJIT({
    type: 'object',
    shape,
    catchall: mini.unknown(),
    ...mini.util.normalizeParams(params),
  })) as typeof mini.looseObject;
