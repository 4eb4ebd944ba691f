import type { Context } from 'aws-lambda';
import {
  type AwsClients,
  createAwsClients,
  SecretStore,
  SecretTokenSource,
} from '../../lib/aws/index.js';
import { SkywatchClient } from '../../lib/index.js';
import { MetricUnit, type Observability } from './observability.js';

/**
 * What a function needs to talk to the service and AWS, built once per container (cold start)
 * and reused by every invocation. The Lambda context of the current invocation bounds every
 * call's deadline, so no retry outlives the invocation.
 */
export interface ServiceRuntime {
  aws: AwsClients;
  secrets: SecretStore;
  client: SkywatchClient;
  /** Call at the start of each invocation. */
  bind(context: Context): void;
}

/** Transport settings from the shared environment (docs/operations.md). */
export function transportSettings(env: {
  SKYWATCH_ATTEMPT_TIMEOUT_MS: number;
  SKYWATCH_MAX_ATTEMPTS: number;
  SKYWATCH_MAX_RETRY_WAIT_MS: number;
  TOKEN_WAIT_SECONDS: number;
}) {
  return {
    tokenWaitMs: env.TOKEN_WAIT_SECONDS * 1000,
    attemptTimeoutMs: env.SKYWATCH_ATTEMPT_TIMEOUT_MS,
    maxAttempts: env.SKYWATCH_MAX_ATTEMPTS,
    maxRetryWaitMs: env.SKYWATCH_MAX_RETRY_WAIT_MS,
  };
}

export interface ServiceRuntimeOptions {
  baseUrl: string;
  tokenSecretArn: string;
  userAgentSuffix?: string | undefined;
  attemptTimeoutMs?: number;
  maxAttempts?: number;
  maxRetryWaitMs?: number;
  /** How long to wait for the refresher's new token when the stored one is stale. */
  tokenWaitMs?: number;
  /** Overrides for tests and the local run (a clock, AWS endpoints). */
  aws?: AwsClients;
}

export function serviceRuntime(
  name: string,
  obs: Observability,
  options: ServiceRuntimeOptions,
): ServiceRuntime {
  const aws = options.aws ?? createAwsClients();
  const secrets = new SecretStore(aws.secrets);
  let context: Context | undefined;
  const client = new SkywatchClient({
    baseUrl: options.baseUrl,
    auth: new SecretTokenSource(secrets, options.tokenSecretArn, {
      awaitFreshMs: options.tokenWaitMs ?? 60_000,
    }),
    userAgentSuffix: [name, options.userAgentSuffix].filter(Boolean).join(' '),
    remainingTimeMs: () => context?.getRemainingTimeInMillis() ?? Number.POSITIVE_INFINITY,
    ...(options.attemptTimeoutMs === undefined
      ? {}
      : { attemptTimeoutMs: options.attemptTimeoutMs }),
    retry: {
      ...(options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts }),
      ...(options.maxRetryWaitMs === undefined ? {} : { maxTotalWaitMs: options.maxRetryWaitMs }),
    },
    hooks: {
      onRetry: (e) => {
        obs.logger.warn('retrying a service call', { retry: e });
        obs.metrics.addMetric('ServiceRetries', MetricUnit.Count, 1);
      },
    },
  });
  return {
    aws,
    secrets,
    client,
    bind: (c) => {
      context = c;
    },
  };
}
