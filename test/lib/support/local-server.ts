import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: Seen, res: ServerResponse, index: number) => void | Promise<void>;

export type LocalServer = Awaited<ReturnType<typeof localServer>>;

const open = new Set<LocalServer>();

/** Closes every server `localServer` started; a test file runs it `afterEach`. */
export async function closeLocalServers(): Promise<void> {
  await Promise.all([...open].map((s) => s.close()));
}

/** A tiny real HTTP server for unit tests: records every request, answers through `handler`. */
export async function localServer(handler: Handler) {
  const seen: Seen[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const record = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks).toString(),
    };
    seen.push(record);
    await handler(record, res, seen.length - 1);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const local = {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        open.delete(local);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  open.add(local);
  return local;
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A clock whose sleeps return at once and are recorded. */
export function fakeClock(start = Date.parse('2026-06-15T12:00:00Z'), random = 0.5) {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    advance: (ms: number) => {
      now += ms;
    },
    clock: {
      now: () => now,
      random: () => random,
      sleep: async (ms: number) => {
        sleeps.push(ms);
        now += ms;
      },
    },
  };
}
