import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { instrumentAwsClients } from '../../lib/aws/clients.js';
import { redact, SkywatchError } from '../../lib/errors/index.js';
import type { CallTracing } from './call-tracer.mjs';
import { SurpriseCounter } from './surprises.js';

export { MetricUnit };

export interface Observability {
  logger: Logger;
  metrics: Metrics;
  /**
   * Present when POWERTOOLS_TRACE_ENABLED is `true` (the stack's `traceCalls` setting): the
   * tracer, and the middleware that makes each invocation a subsegment.
   */
  tracing: CallTracing | undefined;
  /** The service client's surprises, counted and sampled (surprises.ts). */
  surprises: SurpriseCounter;
}

/**
 * A Powertools logger, metrics (CloudWatch embedded format) and, when POWERTOOLS_TRACE_ENABLED
 * is `true`, a tracer for one function. Await it before building AWS clients: from then on
 * each client's calls are X-Ray subsegments. The tracer's module, with the X-Ray SDK, is
 * imported only then, so a function that does not trace its calls does not load it at all.
 * Outside Lambda the tracer does nothing.
 */
export async function observability(service: string): Promise<Observability> {
  const tracing =
    process.env.POWERTOOLS_TRACE_ENABLED === 'true'
      ? (await import('./call-tracer.mjs')).callTracing(service)
      : undefined;
  const tracer = tracing?.tracer;
  if (tracer?.isTracingEnabled()) {
    instrumentAwsClients((client) => tracer.captureAWSv3Client(client));
  }
  const logger = new Logger({ serviceName: service });
  const metrics = new Metrics({
    namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'Skywatch',
    serviceName: service,
  });
  return { logger, metrics, tracing, surprises: new SurpriseCounter({ logger, metrics }) };
}

/** An error as a log attribute: our errors describe themselves redacted; others are scrubbed. */
export function loggableError(error: unknown): Record<string, unknown> {
  if (error instanceof SkywatchError) return error.toJSON();
  if (error instanceof Error) return { name: error.name, message: redact(error.message) };
  return { message: redact(String(error)) };
}

/**
 * The middy chain every handler shares: the invocation as an X-Ray subsegment when calls are
 * traced (cold start annotated; the response left out), Lambda context in every log line,
 * metrics flushed at the end (cold starts counted, the service's surprises with them), and
 * failures logged redacted before they propagate so Lambda's retry and failure destination
 * see them.
 */
export function lambda<E, R>(obs: Observability, run: (event: E, context: Context) => Promise<R>) {
  const chain = middy(run);
  if (obs.tracing) chain.use(obs.tracing.handlerMiddleware);
  return chain
    .use(injectLambdaContext(obs.logger, { resetKeys: true }))
    .use(logMetrics(obs.metrics, { captureColdStartMetric: true }))
    .use({
      // Registered after logMetrics, so this runs first: the counts go out with the invocation.
      after: async () => obs.surprises.flush(),
      onError: async (request) => {
        obs.surprises.flush();
        obs.logger.error('invocation failed', { error: loggableError(request.error) });
        obs.metrics.addMetric('InvocationFailures', MetricUnit.Count, 1);
      },
    });
}
