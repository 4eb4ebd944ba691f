import { pickNeeded } from '../schemas/needs.js';
import { type Read, readTolerant, type Surprise, type Tolerant } from '../schemas/tolerant.js';
import type * as z from '../zod.js';
import type { ClientContext } from './context.js';
import { keepServiceValue } from './service-value.js';

/** A surprise as the client reports it: which answer, which field, which rule; never a value. */
export interface SurpriseEvent extends Omit<Surprise, 'rule'> {
  /** The model read, e.g. `AgentStatus page`, `UsageReportSites`. */
  model: string;
  /**
   * The rule the field broke, or `needed`: a field a function needs is absent or unusable,
   * so the function skipped that entry (see `needs`).
   */
  rule: Surprise['rule'] | 'needed';
}

function report(ctx: ClientContext, event: SurpriseEvent): void {
  try {
    ctx.onSurprise?.(event);
  } catch {
    // A broken counter must not turn a good answer into a failure.
  }
}

/**
 * Reads an answer the way the client was built to: tolerant (surprises reported through
 * `onSurprise`, the value delivered without its broken fields) or, with `strict`, failing on
 * the first surprise. Every JSON answer of every operation goes through here.
 *
 * @example
 * const { value } = readAnswer(ctx, UsageReportSites, body, 'UsageReportSites');
 */
export function readAnswer<S extends z.core.$ZodType>(
  ctx: ClientContext,
  schema: S,
  raw: unknown,
  model: string,
): Read<Tolerant<z.output<S>>> {
  const read = readTolerant(schema, raw, model, { strict: ctx.strict });
  if (ctx.onSurprise) for (const surprise of read.surprises) report(ctx, { ...surprise, model });
  keepServiceValue(read.value, raw);
  return read;
}

/**
 * The fields a function needs from a delivered entry (see `pickNeeded`), or undefined when one
 * is absent or unusable, which is reported through `onSurprise` (rule `needed`, one event per
 * missing path) so the caller only has to skip the entry.
 *
 * @example
 * const endpoint = neededFields(ctx, entry, InfectionNeeds, 'AgentStatus');
 * if (!endpoint) continue;
 */
export function neededFields<S extends z.core.$ZodType>(
  ctx: ClientContext,
  value: unknown,
  needs: S,
  model: string,
): z.output<S> | undefined {
  const picked = pickNeeded(value, needs);
  if (picked.ok) return picked.value;
  for (const path of picked.missing) report(ctx, { model, at: path, path, rule: 'needed' });
  return undefined;
}
