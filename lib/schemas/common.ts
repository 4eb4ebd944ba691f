import { SchemaError } from '../errors/errors.js';
import { SERVICE_INSTANT } from '../validation/dates.js';
import * as z from '../zod.js';

/**
 * An ISO 8601 instant in any rendering the service uses (docs/service-choices.md "Dates"):
 * `2026-06-15T12:00:00Z`, `2023-05-04T12:17:39` (no zone: UTC), `2022-11-29T10:36:02.2629051Z`,
 * offsets. The value stays the service's text; read it with `instantMs` or `utcInstant`
 * (lib/validation/dates.ts), never with `Date.parse`, which takes a zoneless text as local time.
 */
export const DateTime = z.string().check(z.regex(SERVICE_INSTANT, 'must be an ISO 8601 date-time'));
export const Int = z.number().check(z.int());
export const Keycode = z.string();
export const Uuid = z.string();

/**
 * Formats a zod issue path the way people read JSON: `QueryResults[3].BasicInfo.Infected`.
 *
 * @example
 * formatPath(['QueryResults', 3, 'BasicInfo']); // 'QueryResults[3].BasicInfo'
 */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || '(root)';
}

/**
 * Validates a response body, raising a SchemaError that names the first failing field.
 *
 * @example
 * const report = parseResponse(UsageReportGSM, body, 'UsageReportGSM');
 */
export function parseResponse<S extends z.core.$ZodType>(
  schema: S,
  data: unknown,
  model: string,
): z.output<S> {
  const result = z.safeParse(schema, data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = formatPath(issue?.path ?? []);
  throw new SchemaError(
    `Response ${model} breaks its schema at ${path}: ${issue?.message ?? 'invalid'}`,
    path,
    { cause: result.error },
  );
}
