import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context } from 'aws-lambda';
import AWSXRay from 'aws-xray-sdk-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { lambda, type Observability, observability } from '../../functions/shared/observability.js';
import { serviceCallTracing, type TracerLike } from '../../functions/shared/tracing.js';
import { s3Client } from '../../lib/aws/index.js';
import { ClientEmitter, Transport } from '../../lib/http/index.js';

/** A local service: /ok answers 200, /flaky 503 then 200, /slow never answers in time. */
let server: Server;
let base: string;
let flakyCalls = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/flaky' && flakyCalls++ === 0) return void res.writeHead(503).end();
    if (req.url === '/slow') return void setTimeout(() => res.writeHead(200).end('late'), 3000);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

// Quiet logs and no metrics output: this file looks at traces only.
process.env.POWERTOOLS_LOG_LEVEL = 'CRITICAL';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';

const context = {
  functionName: 'test',
  awsRequestId: 'req-1',
  getRemainingTimeInMillis: () => 60_000,
} as unknown as Context;

/** Observability with tracing on, as in Lambda (outside it, the Tracer turns itself off). */
async function tracedObservability(): Promise<Observability> {
  vi.stubEnv('AWS_EXECUTION_ENV', 'AWS_Lambda_nodejs24.x');
  vi.stubEnv('POWERTOOLS_TRACE_ENABLED', 'true');
  try {
    return await observability('tracing-test');
  } finally {
    vi.unstubAllEnvs();
  }
}

const obs = await tracedObservability();

/** Runs `invoke` in an X-Ray context under a fresh root segment, as Lambda's facade is. */
async function traced(invoke: () => Promise<unknown>): Promise<Json> {
  const root = new AWSXRay.Segment('root');
  await AWSXRay.getNamespace().runPromise(async () => {
    AWSXRay.setSegment(root);
    await invoke().catch(() => undefined);
  });
  return JSON.parse(root.format()) as Json;
}

type Json = Record<string, unknown> & { subsegments?: Json[] };

describe('Function: tracing through the handler chain', () => {
  const transport = new Transport({
    userAgent: 'skywatch-test',
    // Long enough that a loaded machine never turns an answer into a timeout and a retry.
    attemptTimeoutMs: 1000,
    retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
    events: new ClientEmitter(serviceCallTracing(obs.tracing?.tracer)),
  });

  it('opens one subsegment per service call attempt under the handler, closed with its status', async () => {
    // Prepare
    const handler = lambda(obs, async () => {
      await transport.send({ method: 'GET', url: `${base}/ok?token=hunter2` });
      await transport.send({ method: 'GET', url: `${base}/flaky` });
    });

    // Act
    const root = await traced(() => handler({}, context));

    // Assess
    const [invocation] = root.subsegments ?? [];
    expect(invocation?.name).toMatch(/^## /);
    const calls = invocation?.subsegments ?? [];
    expect(
      calls.map((c) => ({
        name: c.name,
        namespace: c.namespace,
        http: c.http,
        attempt: (c.annotations as Record<string, unknown>).attempt,
        fault: c.fault ?? false,
        open: c.in_progress ?? false,
      })),
    ).toEqual([
      {
        name: '127.0.0.1',
        namespace: 'remote',
        http: {
          request: { method: 'GET', url: `${base}/ok?token=[REDACTED]` },
          response: { status: 200 },
        },
        attempt: 1,
        fault: false,
        open: false,
      },
      {
        name: '127.0.0.1',
        namespace: 'remote',
        http: { request: { method: 'GET', url: `${base}/flaky` }, response: { status: 503 } },
        attempt: 1,
        fault: true,
        open: false,
      },
      {
        name: '127.0.0.1',
        namespace: 'remote',
        http: { request: { method: 'GET', url: `${base}/flaky` }, response: { status: 200 } },
        attempt: 2,
        fault: false,
        open: false,
      },
    ]);
    expect(JSON.stringify(root)).not.toContain('hunter2');
  });

  it('closes the subsegment of an attempt that got no answer, as a fault', async () => {
    const handler = lambda(obs, async () => {
      await transport.send({ method: 'POST', url: `${base}/slow`, body: '{}' });
    });

    const root = await traced(() => handler({}, context));

    const calls = root.subsegments?.[0]?.subsegments ?? [];
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ name: '127.0.0.1', fault: true });
    expect(calls[0]?.in_progress).toBeUndefined();
    expect(JSON.stringify(calls[0]?.cause)).toContain(`POST ${base}/slow: timeout`);
  });

  it('captures AWS SDK clients built after observability()', () => {
    expect(s3Client().middlewareStack.identify().join(' ')).toContain('XRaySDKInstrumentation');
  });
});

describe('Function: tracing switched off', () => {
  it('adds no hooks and opens nothing when the tracer is disabled', () => {
    const tracer: TracerLike = {
      isTracingEnabled: () => false,
      getSegment: () => {
        throw new Error('must not be called');
      },
    };
    expect(serviceCallTracing(tracer)).toEqual({});
  });

  it.each([
    ['false', 'false'],
    ['unset', undefined],
  ])('has no tracer with POWERTOOLS_TRACE_ENABLED %s, and is silent', async (_, value) => {
    vi.stubEnv('AWS_EXECUTION_ENV', 'AWS_Lambda_nodejs24.x');
    vi.stubEnv('POWERTOOLS_TRACE_ENABLED', value);
    const warn = vi.spyOn(console, 'warn');
    const error = vi.spyOn(console, 'error');
    try {
      const obs = await observability('tracing-off');
      expect(obs.tracing).toBeUndefined();
      expect(serviceCallTracing(obs.tracing?.tracer)).toEqual({});
      expect(warn).not.toHaveBeenCalled();
      expect(error).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('is off outside Lambda even when asked for, and silent', async () => {
    vi.stubEnv('POWERTOOLS_TRACE_ENABLED', 'true');
    const warn = vi.spyOn(console, 'warn');
    try {
      const obs = await observability('tracing-outside-lambda');
      expect(obs.tracing?.tracer.isTracingEnabled()).toBe(false);
      expect(serviceCallTracing(obs.tracing?.tracer)).toEqual({});
      expect(warn).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
