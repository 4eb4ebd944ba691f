import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP proxy in front of moto that can stop SNS Publish calls (and only those) on their
 * way: let them through, hold them (the caller hangs as if its process froze mid-publish), or
 * refuse them (SNS answers an error the SDK does not retry). Everything else passes untouched,
 * so a handler pointed at the gate sees real S3, SNS and Secrets Manager otherwise.
 */
export type GateMode = 'pass' | 'hold' | 'fail';

export interface PublishGate {
  endpoint: string;
  /** What happens to Publish calls from now on; calls already held stay held. */
  mode(mode: GateMode): void;
  /** Resolves once a Publish call is being held. */
  held(): Promise<void>;
  /** Answers the held calls with SNS's error, as when a frozen process meets a dead socket. */
  failHeld(): void;
  close(): Promise<void>;
}

interface Held {
  res: ServerResponse;
}

const REFUSAL = `<ErrorResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/">
<Error><Type>Sender</Type><Code>AuthorizationError</Code><Message>refused by the test gate</Message></Error>
<RequestId>gate</RequestId></ErrorResponse>`;

function refuse(res: ServerResponse): void {
  res.writeHead(403, { 'content-type': 'text/xml' }).end(REFUSAL);
}

function forward(target: URL, req: IncomingMessage, body: Buffer, res: ServerResponse): void {
  const upstream = request(
    {
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: req.headers,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => res.destroy());
  upstream.end(body);
}

export async function startPublishGate(targetEndpoint: string): Promise<PublishGate> {
  const target = new URL(targetEndpoint);
  let current: GateMode = 'pass';
  const held: Held[] = [];
  let waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      // SNS speaks the query protocol: a form body naming the action.
      const isPublish = /(^|&)Action=Publish(&|$)/.test(body.toString('utf8'));
      if (!isPublish || current === 'pass') return forward(target, req, body, res);
      if (current === 'fail') return refuse(res);
      held.push({ res });
      for (const wake of waiters) wake();
      waiters = [];
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    mode: (mode) => {
      current = mode;
    },
    held: () =>
      held.length > 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve)),
    failHeld: () => {
      for (const call of held.splice(0)) refuse(call.res);
    },
    close: async () => {
      for (const call of held.splice(0)) call.res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
