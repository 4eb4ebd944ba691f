import { formatPath } from '../schemas/common.js';
import * as z from '../zod.js';

/**
 * What the operator-edited alert documents (routing, maintenance windows) share: every problem
 * listed with its path, and names compared as a person types them.
 */

/** One thing wrong with a document, where: `routes[0].match.kind[1]`. */
export interface DocumentProblem {
  path: string;
  /** The same path as keys and indexes, for a caller that nests it (the stack's settings). */
  segments: (string | number)[];
  message: string;
}

/** Every problem of `value` as a `schema` document, each with its path; none when it is valid. */
export function documentProblems(schema: z.core.$ZodType, value: unknown): DocumentProblem[] {
  const parsed = z.safeParse(schema, value);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => ({
    // The path as a person reads JSON (`routes[0].match.kind[1]`), the whole document's named.
    path: issue.path.length > 0 ? formatPath(issue.path) : '(document)',
    segments: issue.path.map((p) => (typeof p === 'number' ? p : String(p))),
    message: issue.message,
  }));
}

/**
 * A document from its JSON text (an SSM parameter, a file); `invalid` makes the error that
 * lists every problem, text that is not JSON being one.
 */
export function parseDocumentText<T extends z.core.$ZodType>(
  schema: T,
  text: string,
  invalid: (problems: DocumentProblem[], cause?: unknown) => Error,
): z.output<T> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = `is not JSON: ${(error as Error).message}`;
    throw invalid([{ path: '(document)', segments: [], message }], error);
  }
  const parsed = z.safeParse(schema, value);
  if (parsed.success) return parsed.data;
  throw invalid(documentProblems(schema, value));
}

/** Keycodes and site names as a person types them: trimmed, in any case. */
export const sameName = (a: string, b: string | null) =>
  b !== null && a.trim().toLowerCase() === b.trim().toLowerCase();
