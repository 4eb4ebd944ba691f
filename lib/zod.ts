/**
 * The zod that code bundled into the Lambda functions uses: `zod/mini`, whose schemas keep their
 * methods on shared prototypes and whose functional API lets esbuild drop what we do not call,
 * so a function's cold start no longer pays for classic zod. Import it as
 * `import * as z from '<path>/lib/zod.js'`, never `zod` or `zod/mini` directly (biome.json
 * refuses those under lib/ and functions/).
 *
 * Two things classic zod does on its own are done here, so that nothing a caller or an
 * operator reads changes:
 * - English issue messages ("Too small: expected string to have >=3 characters"). zod/mini
 *   ships no locale and would say "Invalid input". The call below runs whenever this module is
 *   in a bundle; the package is `"sideEffects": false`, so a module imported only for a side
 *   effect would be dropped, and this one is kept because every function parses through the
 *   `parse`/`safeParse` defined here (test/infra/bundles.test.ts checks the built bundles).
 * - Errors named `ZodError`: zod/mini's are `$ZodError`, and the name reaches log lines (as an
 *   error's or a cause's `name`) and Lambda's error type. `parse` and `safeParse` below replace
 *   zod/mini's exports of the same names (a module's own exports win over `export *`).
 */
import * as mini from 'zod/mini';
import { ZodMiniType } from 'zod/mini';
import {
  _parse,
  _safeParse,
  $constructor,
  type $Parse,
  type $SafeParse,
  $ZodError,
  type $ZodErrorClass,
  $ZodObjectJIT,
  config,
  util,
} from 'zod/v4/core';
import en from 'zod/v4/locales/en.js';

config(en());

export * from 'zod/mini';

/** Classic zod's error class, without the helper methods nothing here calls. */
const ZodError: $ZodErrorClass = $constructor(
  'ZodError',
  (inst: $ZodError, issues: $ZodError['issues']) => {
    $ZodError.init(inst, issues);
    inst.name = 'ZodError';
  },
  undefined,
  { Parent: Error },
);

/**
 * Validates `value`, answering the output or throwing a `ZodError` that lists the issues.
 *
 * @example
 * const task = z.parse(SiteMessage, JSON.parse(body));
 */
export const parse: $Parse = _parse(ZodError);

/**
 * Validates `value` without throwing: `{ success: true, data }` or `{ success: false, error }`.
 *
 * @example
 * const result = z.safeParse(WebhookRequest, body);
 */
export const safeParse: $SafeParse = _safeParse(ZodError);

/**
 * zod/mini's object schema with classic zod's compiled parser. zod/mini interprets every object
 * field by field, two to three times slower than classic zod on a 1,000-entry status page (14-30
 * ms against 5-8 ms); classic zod's objects compile a parser on first use, which costs nothing at
 * cold start. Same name and traits as zod/mini's, so `instanceof` and introspection still work.
 */
const ZodMiniObjectJIT = $constructor('ZodMiniObject', (inst: mini.ZodMiniObject, def) => {
  $ZodObjectJIT.init(inst, def);
  ZodMiniType.init(inst, def);
  util.installLazyProp(inst, 'shape', (self) => self._zod.def.shape, false);
}) as unknown as typeof mini.ZodMiniObject;

/** @example const Point = z.object({ x: z.number(), y: z.number() }); */
export const object: typeof mini.object = ((shape, params) =>
  new ZodMiniObjectJIT({
    type: 'object',
    shape: shape ?? {},
    ...util.normalizeParams(params),
  })) as typeof mini.object;

/** Unknown keys are refused. @example z.strictObject({ gsm: z.string() }) */
export const strictObject: typeof mini.strictObject = ((shape, params) =>
  new ZodMiniObjectJIT({
    type: 'object',
    shape,
    catchall: mini.never(),
    ...util.normalizeParams(params),
  })) as typeof mini.strictObject;

/** Unknown keys are kept (the service adds fields over time). @example z.looseObject({ Count: z.number() }) */
export const looseObject: typeof mini.looseObject = ((shape, params) =>
  new ZodMiniObjectJIT({
    type: 'object',
    shape,
    catchall: mini.unknown(),
    ...util.normalizeParams(params),
  })) as typeof mini.looseObject;
