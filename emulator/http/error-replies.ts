import { randomUUID } from 'node:crypto';
import type { Problem } from './problem.js';
import type { Reply } from './respond.js';

/** A proxy's page in front of the service: what the `body: 'html'` status fault sends. */
export class HtmlFault extends Error {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
  ) {
    super('html fault');
    this.name = 'HtmlFault';
  }
}

/**
 * A resource error in the configured style: RFC 9457 problem details, or the real service's
 * envelope with a fresh requestId (docs/service-choices.md, "The real service").
 */
export function problemReply(
  problem: Problem,
  style: 'problem' | 'envelope',
  traceId: string,
): Reply {
  if (style === 'envelope') {
    return {
      status: problem.status,
      body: problem.envelope(randomUUID()),
      contentType: 'application/json; charset=utf-8',
      headers: problem.headers,
    };
  }
  return {
    status: problem.status,
    body: problem.body(traceId),
    contentType: 'application/problem+json; charset=utf-8',
    headers: problem.headers,
  };
}

export function htmlReply(fault: HtmlFault): Reply {
  return {
    status: fault.status,
    body: `<!DOCTYPE html><html><head><title>${fault.status} Service Unavailable</title></head><body><h1>Service Unavailable</h1><p>The server is temporarily unable to service your request.</p></body></html>`,
    contentType: 'text/html; charset=utf-8',
    headers: fault.headers,
  };
}
