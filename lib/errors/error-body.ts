import type { ProblemDetails } from './errors.js';

/** What an error answer's body turned out to be. */
export type ErrorBodyForm = 'problem' | 'envelope' | 'oauth' | 'json' | 'html' | 'text' | 'empty';

/** An error answer's body, read whatever its shape. */
export interface ErrorBody {
  form: ErrorBodyForm;
  /** RFC 9457 fields, or the envelope's and OAuth's mapped onto them; undefined without JSON. */
  problem: ProblemDetails | undefined;
  /** The service's id of the request (envelope `requestId`, problem `traceId`): for support. */
  requestId: string | undefined;
  /** The OAuth-style code (`error`, or the problem's `code`), when the body names one. */
  code: string | undefined;
  /** A human text: the description or detail, or what the body was when it had none. */
  summary: string;
}

const DESCRIBE: Record<'html' | 'text' | 'empty', string> = {
  html: 'an HTML page instead of an error body (a proxy or gateway answered, not the service)',
  text: 'a body that is not JSON',
  empty: 'an empty body',
};

/** The object's members by lower-cased name: the service mixes casings within one body. */
function byLowerName(value: Record<string, unknown>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(value)) {
    const key = k.toLowerCase();
    if (!out.has(key)) out.set(key, v);
  }
  return out;
}

const text = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v : undefined;

/** `{field: ["rule", …]}` members of AdditionalInformation, as RFC 9457 `errors`. */
function fieldErrors(v: unknown): Record<string, string[]> | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const out: Record<string, string[]> = {};
  for (const [k, rules] of Object.entries(v)) {
    if (Array.isArray(rules) && rules.every((r) => typeof r === 'string')) out[k] = rules;
    else if (typeof rules === 'string') out[k] = [rules];
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function fromJson(json: Record<string, unknown>): ErrorBody {
  const m = byLowerName(json);
  const requestId = text(m.get('requestid')) ?? text(m.get('traceid'));
  const isEnvelope = m.has('statuscode') || m.has('requestid') || m.has('additionalinformation');
  const isProblem = !isEnvelope && (m.has('detail') || m.has('title') || m.has('type'));
  const code = text(m.get('error')) ?? text(m.get('code'));
  const description =
    text(m.get('error_description')) ??
    text(m.get('detail')) ??
    text(m.get('title')) ??
    text(m.get('message'));
  const status = m.get('statuscode') ?? m.get('status');
  const errors = fieldErrors(m.get('errors')) ?? fieldErrors(m.get('additionalinformation'));
  const problem: ProblemDetails = {
    ...json,
    ...(typeof status === 'number' ? { status } : {}),
    ...(code ? { code } : {}),
    ...(description ? { detail: description } : {}),
    ...(errors ? { errors } : {}),
    ...(requestId ? { requestId } : {}),
  };
  return {
    form: isEnvelope ? 'envelope' : isProblem ? 'problem' : code ? 'oauth' : 'json',
    problem,
    requestId,
    code,
    summary: description ?? code ?? 'no details',
  };
}

/**
 * Reads an error answer's body in any of the shapes the service or what stands before it
 * sends: RFC 9457 problem details, the real service's envelope
 * `{statusCode, requestId, error, error_description, AdditionalInformation}` (casing mixed),
 * an RFC 6749 error, an HTML page from a proxy, or nothing at all. Never throws.
 *
 * @example
 * readErrorBody('{"statusCode":400,"requestId":"r-1","error":null,"error_description":"Batch size…"}', 'application/json').summary; // 'Batch size…'
 */
export function readErrorBody(body: string, contentType: string | null): ErrorBody {
  const trimmed = body.trim();
  if (trimmed === '') return bare('empty');
  if (trimmed.startsWith('{')) {
    try {
      const json: unknown = JSON.parse(trimmed);
      if (json && typeof json === 'object' && !Array.isArray(json)) {
        return fromJson(json as Record<string, unknown>);
      }
    } catch {
      // Falls through: a body cut short or not JSON reads as text.
    }
  }
  const html = /html/i.test(contentType ?? '') || /^<(!doctype|html|head|body)\b/i.test(trimmed);
  return bare(html ? 'html' : 'text');
}

function bare(form: 'html' | 'text' | 'empty'): ErrorBody {
  return {
    form,
    problem: undefined,
    requestId: undefined,
    code: undefined,
    summary: DESCRIBE[form],
  };
}
