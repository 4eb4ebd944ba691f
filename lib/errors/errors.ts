import { inspect } from 'node:util';
import { redact, redactUrl, redactValue } from './redact.js';

/** RFC 9457 problem details as the service sends them (see docs/service-choices.md). */
export interface ProblemDetails {
  type?: string;
  title?: string;
  status?: number;
  code?: string;
  detail?: string;
  errors?: Record<string, string[]>;
  traceId?: string;
  [key: string]: unknown;
}

function describeCause(cause: unknown): unknown {
  if (cause instanceof SkywatchError) return cause.toJSON();
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return {
      name: cause.name,
      message: redact(cause.message),
      ...(code ? { code } : {}),
      ...(cause.cause ? { cause: describeCause(cause.cause) } : {}),
    };
  }
  return cause === undefined ? undefined : redact(String(cause));
}

/**
 * Root of every error the client throws. Messages are redacted when built, and `toJSON` /
 * `util.inspect` show only redacted fields, because loggers serialise errors in both ways.
 */
export class SkywatchError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    // Redacted before Error sees it, so the stack header is clean as well.
    super(redact(message), options);
  }

  /** Fields safe to log; subclasses add theirs. */
  toJSON(): Record<string, unknown> {
    const own: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(this)) if (k !== 'cause') own[k] = redactValue(v);
    return { name: this.name, message: this.message, ...own, cause: describeCause(this.cause) };
  }

  [inspect.custom](): string {
    const stack = (this.stack ?? '').split('\n').slice(1).join('\n');
    return `${this.name}: ${this.message} ${inspect(this.toJSON(), { depth: 6 })}\n${stack}`;
  }
}

/** An input broke a rule; raised before any request is sent. */
export class ValidationError extends SkywatchError {
  constructor(
    readonly field: string,
    readonly rule: string,
    options?: { cause?: unknown },
  ) {
    super(`Invalid ${field}: ${rule}`, options);
    this.name = 'ValidationError';
  }
}

/** Token request refused, token rejected, or a scope missing. `code` is the RFC 6749/6750 code. */
export class AuthError extends SkywatchError {
  constructor(
    message: string,
    readonly code: string,
    readonly details: {
      status?: number;
      scope?: string;
      description?: string;
      /** The service's id of the request, for a support ticket. */
      requestId?: string;
    } = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AuthError';
  }

  get status(): number | undefined {
    return this.details.status;
  }

  /** The scope named by an `insufficient_scope` failure. */
  get scope(): string | undefined {
    return this.details.scope;
  }
}

/**
 * The path and query of an already redacted URL (`/service/api/x?batchSize=5`); the text
 * itself when it is not an absolute URL.
 */
function pathAndQuery(safeUrl: string): string {
  try {
    const { origin } = new URL(safeUrl);
    return safeUrl.startsWith(origin) ? safeUrl.slice(origin.length) || '/' : safeUrl;
  } catch {
    return safeUrl;
  }
}

/** What an HttpError may carry beyond its cause. */
export interface HttpErrorOptions {
  cause?: unknown;
  /** The message's account of the answer when the body had no detail (an HTML page, nothing). */
  summary?: string;
  /** The service's id of the request, when the body named one. */
  requestId?: string;
}

/**
 * The service answered with an error status. `path` is the request's path and query, `url` the
 * whole URL; both have secrets in the query redacted. `requestId` is the service's id of the
 * request (the envelope's `requestId`, a problem's `traceId`): quote it in a support ticket.
 */
export class HttpError extends SkywatchError {
  /** Path and query, e.g. `/service/api/status/gsm/ABCD-…?batchSize=50`. */
  readonly path: string;
  /** The whole URL, host included. */
  readonly url: string;
  readonly requestId?: string;
  constructor(
    readonly status: number,
    readonly method: string,
    url: string,
    readonly problem: ProblemDetails | undefined,
    options: HttpErrorOptions = {},
  ) {
    const safeUrl = redactUrl(url);
    const what = problem?.detail ?? problem?.title ?? options.summary ?? 'no details';
    super(
      `${method} ${safeUrl} failed with HTTP ${status}: ${what}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'HttpError';
    this.path = pathAndQuery(safeUrl);
    this.url = safeUrl;
    const id = options.requestId ?? problem?.requestId ?? problem?.traceId;
    if (typeof id === 'string') this.requestId = id;
  }
}

/** HTTP 429 after retries ran out. `retryAfter` is in milliseconds, when the service said. */
export class RateLimitError extends HttpError {
  constructor(
    method: string,
    url: string,
    problem: ProblemDetails | undefined,
    readonly retryAfter: number | undefined,
    options?: HttpErrorOptions,
  ) {
    super(429, method, url, problem, options);
    this.name = 'RateLimitError';
  }
}

/** An attempt or the overall deadline ran out. */
export class TimeoutError extends SkywatchError {
  constructor(
    message: string,
    readonly kind: 'attempt' | 'deadline',
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'TimeoutError';
  }
}

/** The connection failed or broke. `connect` is true when no byte can have reached the server. */
export class NetworkError extends SkywatchError {
  constructor(
    message: string,
    readonly connect: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'NetworkError';
  }
}

/** A response broke its schema; `path` names the field, e.g. `QueryResults[3].BasicInfo.Infected`. */
export class SchemaError extends SkywatchError {
  constructor(
    message: string,
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SchemaError';
  }
}

// Names live on the prototypes too, so the stack header captured inside `super()` already
// carries the subclass name (and survives minifiers that rename classes).
for (const [cls, name] of [
  [SkywatchError, 'SkywatchError'],
  [ValidationError, 'ValidationError'],
  [AuthError, 'AuthError'],
  [HttpError, 'HttpError'],
  [RateLimitError, 'RateLimitError'],
  [TimeoutError, 'TimeoutError'],
  [NetworkError, 'NetworkError'],
  [SchemaError, 'SchemaError'],
] as const) {
  Object.defineProperty(cls.prototype, 'name', { value: name, writable: true, configurable: true });
}
