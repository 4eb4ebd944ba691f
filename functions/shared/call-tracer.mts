import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';

export interface CallTracing {
  tracer: Tracer;
  /** The invocation as an X-Ray subsegment, cold start annotated, the response left out. */
  handlerMiddleware: ReturnType<typeof captureLambdaHandler>;
}

/**
 * Powertools' Tracer for one function, imported by `observability()` only when the stack asks
 * for call subsegments (setting `traceCalls`). The X-Ray SDK under it is a large share of a
 * cold start (docs/performance.md), so the stack bundles this module into a file of its own
 * beside every function (infra/bundling.ts, LAZY_CHUNKS): a function that does not trace its
 * calls neither parses nor runs it. An `.mts` so that the chunk, an `.mjs`, and this source
 * answer the same `import()` specifier. Nothing else of ours is imported here: the chunk would
 * hold a second copy of it.
 */
export function callTracing(service: string): CallTracing {
  // Service calls are traced through the client's hooks (./tracing.ts), and the AWS SDK's
  // through its own client, so the tracer does not also patch http, https and fetch.
  const tracer = new Tracer({ serviceName: service, captureHTTPsRequests: false });
  // The response is left out: it can be large.
  return { tracer, handlerMiddleware: captureLambdaHandler(tracer, { captureResponse: false }) };
}
