import { SecretStore, secretsClient } from '../../lib/aws/index.js';
import { AuthError } from '../../lib/index.js';
import * as z from '../../lib/zod.js';
import { CredentialsEnv, intSetting, readEnv, ServiceEnv } from '../shared/env.js';
import { lambda, MetricUnit, observability } from '../shared/observability.js';
import { serviceCallTracing } from '../shared/tracing.js';
import { refreshTokens } from './refresh.js';

/** token-refresher: the only writer of the token secret (reserved concurrency 1). */
const env = readEnv(
  z.extend(ServiceEnv, {
    ...CredentialsEnv.shape,
    REFRESH_AHEAD_SECONDS: intSetting({ min: 0, default: 330 }),
  }),
);
const obs = await observability('token-refresher');
const secrets = new SecretStore(secretsClient());

export const handler = lambda(obs, async () => {
  try {
    const outcome = await refreshTokens(
      secrets,
      {
        baseUrl: env.SKYWATCH_BASE_URL,
        authUrl: env.SKYWATCH_AUTH_URL,
        credentialsSecretArn: env.CREDENTIALS_SECRET_ARN,
        tokenSecretArn: env.TOKEN_SECRET_ARN,
        refreshAheadMs: env.REFRESH_AHEAD_SECONDS * 1000,
        userAgentSuffix: env.SKYWATCH_USER_AGENT_SUFFIX,
        attemptTimeoutMs: env.SKYWATCH_ATTEMPT_TIMEOUT_MS,
      },
      {
        ...serviceCallTracing(obs.tracing?.tracer),
        onTokenFallback: (e) => {
          obs.logger.warn(`refresh grant failed (${e.error}); fell back to the password grant`, {
            fallback: e,
          });
          obs.metrics.addMetric('TokenFallbacks', MetricUnit.Count, 1);
        },
        onScopesReduced: (e) =>
          obs.logger.warn('the service granted fewer scopes than asked', { scopes: e }),
      },
    );
    obs.logger.info(`token ${outcome.action}`, { expiresAt: outcome.expiresAt });
    obs.metrics.addMetric(
      outcome.action === 'skipped' ? 'TokenFresh' : 'TokenRenewed',
      MetricUnit.Count,
      1,
    );
    return outcome;
  } catch (error) {
    if (error instanceof AuthError) obs.metrics.addMetric('AuthFailures', MetricUnit.Count, 1);
    throw error;
  }
});
