import type { ServerResponse } from 'node:http';
import { type FaultDecision, withWrongType } from './faults.js';

export const API_VERSION = '1.0.26271.1';
export const JSON_TYPE = 'application/json; charset=utf-8';
export const XML_TYPE = 'application/xml; charset=utf-8';

export interface Reply {
  status: number;
  /** Text, or the bytes already encoded as UTF-8 (large pages are built as bytes). */
  body: string | Buffer;
  contentType: string;
  headers?: Record<string, string>;
}

export function jsonReply(body: unknown, status = 200): Reply {
  return {
    status,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    contentType: JSON_TYPE,
  };
}

/**
 * Writes a reply. A body fault turns a good answer bad the way a broken proxy would: `reset`
 * promises the whole body and drops the connection half way, `truncate` sends a short body
 * with a matching length, `malformed` sends a page that is not JSON, `wrong-type` sends one
 * field with the wrong type.
 */
export function send(
  res: ServerResponse,
  reply: Reply,
  fault?: FaultDecision,
  now = Date.now(),
): void {
  let body = typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body;
  const headers: Record<string, string | number> = {
    'content-type': reply.contentType,
    'api-version': API_VERSION,
    // The service's own clock, which may be frozen or advanced: clients read time from it.
    date: new Date(now).toUTCString(),
    ...reply.headers,
  };
  if (fault?.kind === 'malformed' && reply.status === 200) {
    body = Buffer.from('<html><body>upstream proxy error</body></html>');
  } else if (fault?.kind === 'truncate' && reply.status === 200) {
    body = body.subarray(0, Math.floor(body.length / 2));
  } else if (fault?.kind === 'wrong-type' && reply.status === 200) {
    body = Buffer.from(withWrongType(body.toString()));
  }
  headers['content-length'] = body.length;
  res.writeHead(reply.status, headers);
  if (fault?.kind === 'reset' && reply.status === 200) {
    res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.socket?.destroy());
    return;
  }
  res.end(body);
}
