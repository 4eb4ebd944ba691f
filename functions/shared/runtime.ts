import type { Context } from 'aws-lambda';
import { SecretStore, SecretTokenSource, secretsClient } from '../../lib/aws/index.js';
import { SkywatchClient } from '../../lib/index.js';
import type * as z from '../../lib/zod.js';
import type { ServiceEnv } from './env.js';
import { MetricUnit, type Observability } from './observability.js';
import { serviceCallTracing } from './tracing.js';

/**
 * What a function needs to talk to the service, built once per container (cold start)
 * and reused by every invocation. The Lambda context of the current invocation bounds every
 * call's deadline, so no retry outlives the invocation. Other AWS clients are the function's own
 * (`s3Client()`, `snsClient()`, ...), so each bundle holds only the SDK clients it uses.
 */
export interface ServiceRuntime {
  secrets: SecretStore;
  client: SkywatchClient;
  /** Call at the start of each invocation. */
  bind(context: Context): void;
}

/** The shared environment every service-calling function parses (functions/shared/env.ts). */
export type ServiceEnvValues = z.infer<typeof ServiceEnv>;

export function serviceRuntime(
  name: string,
  obs: Observability,
  env: ServiceEnvValues,
): ServiceRuntime {
  const secrets = new SecretStore(secretsClient());
  let context: Context | undefined;
  const client = new SkywatchClient({
    baseUrl: env.SKYWATCH_BASE_URL,
    auth: new SecretTokenSource(secrets, env.TOKEN_SECRET_ARN, {
      awaitFreshMs: env.TOKEN_WAIT_SECONDS * 1000,
    }),
    userAgentSuffix: [name, env.SKYWATCH_USER_AGENT_SUFFIX].filter(Boolean).join(' '),
    remainingTimeMs: () => context?.getRemainingTimeInMillis() ?? Number.POSITIVE_INFINITY,
    attemptTimeoutMs: env.SKYWATCH_ATTEMPT_TIMEOUT_MS,
    retry: {
      maxAttempts: env.SKYWATCH_MAX_ATTEMPTS,
      maxTotalWaitMs: env.SKYWATCH_MAX_RETRY_WAIT_MS,
    },
    // Counted and logged by path and rule in one place for every function (surprises.ts).
    onSurprise: obs.surprises.record,
    hooks: {
      ...serviceCallTracing(obs.tracing?.tracer),
      onRetry: (e) => {
        obs.logger.warn('retrying a service call', { retry: e });
        obs.metrics.addMetric('ServiceRetries', MetricUnit.Count, 1);
      },
    },
  });
  return {
    secrets,
    client,
    bind: (c) => {
      context = c;
    },
  };
}
