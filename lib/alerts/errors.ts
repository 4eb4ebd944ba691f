import { SkywatchError } from '../errors/index.js';

/** One thing wrong with a routing document, where: `routes[0].match.kind[1]`. */
export interface RoutingProblem {
  path: string;
  /** The same path as keys and indexes, for a caller that nests it (the stack's settings). */
  segments: (string | number)[];
  message: string;
}

/**
 * A routing document that is not JSON, or not of the documented shape (docs/operations.md,
 * "Routing"): every problem, each with its path. The document holds names only, never a
 * secret, so the problems may be logged as they are.
 */
export class RoutingDocumentError extends SkywatchError {
  constructor(
    readonly problems: readonly RoutingProblem[],
    options?: { cause?: unknown },
  ) {
    const n = problems.length;
    super(
      `The alert routing document is invalid (${n} problem${n === 1 ? '' : 's'}): ${problems
        .map((p) => `${p.path}: ${p.message}`)
        .join('; ')}`,
      options,
    );
    this.name = 'RoutingDocumentError';
  }
}

/**
 * A maintenance-windows document (docs/operations.md, "Maintenance windows") that is not JSON
 * or not of its shape: every problem, each with its path, as for routing.
 */
export class MutesDocumentError extends SkywatchError {
  constructor(
    readonly problems: readonly RoutingProblem[],
    options?: { cause?: unknown },
  ) {
    const n = problems.length;
    super(
      `The maintenance windows document is invalid (${n} problem${n === 1 ? '' : 's'}): ${problems
        .map((p) => `${p.path}: ${p.message}`)
        .join('; ')}`,
      options,
    );
    this.name = 'MutesDocumentError';
  }
}
