import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { instrumentAwsClients } from '../../lib/aws/clients.js';
import { redact, SkywatchError } from '../../lib/errors/index.js';
import { SurpriseCounter } from './surprises.js';

export { MetricUnit };

export interface Observability {
  logger: Logger;
  metrics: Metrics;
  tracer: Tracer;
  /** The service client's surprises, counted and sampled (surprises.ts). */
  surprises: SurpriseCounter;
}

/**
 * A Powertools logger, metrics (CloudWatch embedded format) and tracer for one function. Call
 * it before building AWS clients: from then on each client's calls are X-Ray subsegments.
 * Outside Lambda, or with POWERTOOLS_TRACE_ENABLED=false, the tracer does nothing.
 */
export function observability(service: string): Observability {
  // Service calls are traced through the client's hooks (./tracing.ts), and the AWS SDK's
  // through its own client, so the tracer does not also patch http, https and fetch.
  const tracer = new Tracer({ serviceName: service, captureHTTPsRequests: false });
  if (tracer.isTracingEnabled()) {
    instrumentAwsClients((client) => tracer.captureAWSv3Client(client));
  }
  const logger = new Logger({ serviceName: service });
  const metrics = new Metrics({
    namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'Skywatch',
    serviceName: service,
  });
  return { logger, metrics, tracer, surprises: new SurpriseCounter({ logger, metrics }) };
}

/** An error as a log attribute: our errors describe themselves redacted; others are scrubbed. */
export function loggableError(error: unknown): Record<string, unknown> {
  if (error instanceof SkywatchError) return error.toJSON();
  if (error instanceof Error) return { name: error.name, message: redact(error.message) };
  return { message: redact(String(error)) };
}

/**
 * The middy chain every handler shares: the invocation as an X-Ray subsegment (cold start
 * annotated; the response left out, as it can be large), Lambda context in every log line,
 * metrics flushed at the end (cold starts counted, the service's surprises with them), and
 * failures logged redacted before they propagate so Lambda's retry and failure destination
 * see them.
 */
export function lambda<E, R>(obs: Observability, run: (event: E, context: Context) => Promise<R>) {
  return middy(run)
    .use(captureLambdaHandler(obs.tracer, { captureResponse: false }))
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
