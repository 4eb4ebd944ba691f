import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What one local receiver got: every request, answered or failed. */
export interface Received {
  /** The request's path: a redirect followed would show here as `/hook/moved`. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

/**
 * A destination stand-in: a real HTTP server on 127.0.0.1 and a free port that records each
 * request. `answer` picks the status of each request (202 by default), so a test can make the
 * destination fail, throttle (429 with `retryAfter`), refuse, redirect (3xx, to `/hook/moved`
 * on itself), drop the connection (0), or take the request and never answer (-1).
 */
export interface Receiver {
  url: string;
  requests: Received[];
  /** Requests answered 2xx: what the destination accepted. */
  accepted(): Received[];
  answer: (request: { body: string; index: number }) => number;
  /** The Retry-After of a 429, in seconds. @default '0' */
  retryAfter: string;
  close(): Promise<void>;
}

export async function startReceiver(okStatus = 202): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    requests: [],
    accepted: () => receiver.requests.filter((r) => r.status >= 200 && r.status < 300),
    answer: () => okStatus,
    retryAfter: '0',
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const status = receiver.answer({ body, index: receiver.requests.length });
      receiver.requests.push({ path: req.url ?? '', headers: req.headers, body, status });
      // -1: the request is taken and never answered, as a receiver hung past our timeout.
      if (status === -1) return;
      // 0: the connection drops before any answer (a reset, as a flaky network does).
      if (status === 0) {
        req.socket.destroy();
        return;
      }
      res.writeHead(status, {
        'content-type': 'application/json',
        ...(status === 429 ? { 'retry-after': receiver.retryAfter } : {}),
        ...(status >= 300 && status < 400 ? { location: `${receiver.url}/moved` } : {}),
      });
      res.end(status < 300 ? '{"status":"success"}' : '{"error":"injected"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}
