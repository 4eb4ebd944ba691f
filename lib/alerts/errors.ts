import { SkywatchError } from '../errors/index.js';
import type { DocumentProblem } from './documents.js';

/**
 * An operator's document that is not JSON, or not of its documented shape: every problem,
 * each with its path. The documents hold names only, never a secret, so the problems may be
 * logged as they are.
 */
export class InvalidDocumentError extends SkywatchError {
  constructor(
    what: string,
    readonly problems: readonly DocumentProblem[],
    options?: { cause?: unknown },
  ) {
    const n = problems.length;
    const list = problems.map((p) => `${p.path}: ${p.message}`).join('; ');
    super(`The ${what} is invalid (${n} problem${n === 1 ? '' : 's'}): ${list}`, options);
    this.name = 'InvalidDocumentError';
  }
}

/** The alert routing document (docs/operations.md, "Routing") is invalid. */
export class RoutingDocumentError extends InvalidDocumentError {
  constructor(problems: readonly DocumentProblem[], options?: { cause?: unknown }) {
    super('alert routing document', problems, options);
    this.name = 'RoutingDocumentError';
  }
}

/** The maintenance-windows document (docs/operations.md, "Maintenance windows") is invalid. */
export class MutesDocumentError extends InvalidDocumentError {
  constructor(problems: readonly DocumentProblem[], options?: { cause?: unknown }) {
    super('maintenance windows document', problems, options);
    this.name = 'MutesDocumentError';
  }
}
