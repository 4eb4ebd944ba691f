import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP proxy in front of moto that can stop one kind of AWS call (say SNS Publish) on its
 * way: let it through, hold it (the caller hangs as if its process froze mid-call), or refuse
 * it with an error the SDK does not retry. Everything else passes untouched, so a handler
 * pointed at the gate otherwise sees real S3, SNS and Secrets Manager.
 */
export type GateMode = 'pass' | 'hold' | 'fail';

export interface GatedCall {
  method: string;
  path: string;
  body: string;
}

export interface GateRule {
  matches(call: GatedCall): boolean;
  /** The service's own error answer, one the SDK does not retry. */
  refusal: { status: number; contentType: string; body: string };
}

/** SNS Publish (query protocol: a form body naming the action). */
export const SNS_PUBLISH: GateRule = {
  matches: (call) => /(^|&)Action=Publish(&|$)/.test(call.body),
  refusal: {
    status: 403,
    contentType: 'text/xml',
    body: '<ErrorResponse><Error><Type>Sender</Type><Code>AuthorizationError</Code><Message>refused by the test gate</Message></Error><RequestId>gate</RequestId></ErrorResponse>',
  },
};

/** S3 PutObject calls whose body contains `fragment`. */
export function s3PutContaining(fragment: string): GateRule {
  return {
    matches: (call) => call.method === 'PUT' && call.body.includes(fragment),
    refusal: {
      status: 403,
      contentType: 'application/xml',
      body: '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>refused by the test gate</Message><RequestId>gate</RequestId></Error>',
    },
  };
}

export interface AwsGate {
  endpoint: string;
  /** What happens to matching calls from now on; calls already held stay held. */
  mode(mode: GateMode): void;
  /** Resolves once a matching call is being held. */
  held(): Promise<void>;
  /** Answers the held calls with the refusal, as when a frozen process meets a dead socket. */
  failHeld(): void;
  /** Lets the held calls go on to moto, as when a frozen process wakes up. */
  forwardHeld(): void;
  close(): Promise<void>;
}

interface Held {
  req: IncomingMessage;
  body: Buffer;
  res: ServerResponse;
}

export async function startAwsGate(targetEndpoint: string, rule: GateRule): Promise<AwsGate> {
  const target = new URL(targetEndpoint);
  let current: GateMode = 'pass';
  const held: Held[] = [];
  let waiters: (() => void)[] = [];

  const refuse = (res: ServerResponse) =>
    res
      .writeHead(rule.refusal.status, { 'content-type': rule.refusal.contentType })
      .end(rule.refusal.body);
  const forward = ({ req, body, res }: Held) => {
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
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const call = { req, body: Buffer.concat(chunks), res };
      const matches = rule.matches({
        method: req.method ?? '',
        path: req.url ?? '',
        body: call.body.toString('utf8'),
      });
      if (!matches || current === 'pass') return forward(call);
      if (current === 'fail') return refuse(res);
      held.push(call);
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
    forwardHeld: () => {
      for (const call of held.splice(0)) forward(call);
    },
    close: async () => {
      for (const call of held.splice(0)) call.res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
