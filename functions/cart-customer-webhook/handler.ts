import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { CredentialsSecretSchema, StateStore, s3Client } from '../../lib/aws/index.js';
import * as z from '../../lib/zod.js';
import { BucketEnv, CredentialsEnv, intSetting, readEnv, ServiceEnv } from '../shared/env.js';
import { lambda, loggableError, MetricUnit, observability } from '../shared/observability.js';
import { serviceRuntime } from '../shared/runtime.js';
import { handleDelivery } from './handle.js';
import { refuse } from './responses.js';

/** cart-customer-webhook: HTTPS entry point (function URL) for the e-commerce flow. */
const env = readEnv(
  z.extend(ServiceEnv, {
    ...BucketEnv.shape,
    ...CredentialsEnv.shape,
    WEBHOOK_TOLERANCE_SECONDS: intSetting({ min: 1, max: 3600, default: 300 }),
    // Just above the function's 25 s timeout: a claim this old has no live Lambda behind it.
    WEBHOOK_CLAIM_TAKEOVER_SECONDS: intSetting({ min: 1, max: 86_400, default: 30 }),
  }),
);
const obs = await observability('cart-customer-webhook');
const runtime = serviceRuntime('cart-customer-webhook', obs, env);
const state = new StateStore(s3Client(), env.REPORT_BUCKET);
const signingSecrets = async () => {
  const credentials = await runtime.secrets.read(
    env.CREDENTIALS_SECRET_ARN,
    CredentialsSecretSchema,
  );
  return {
    webhookSigningSecret: credentials.webhookSigningSecret,
    webhookSigningSecretPrevious: credentials.webhookSigningSecretPrevious,
  };
};

export const handler = lambda(obs, async (event: APIGatewayProxyEventV2, context) => {
  runtime.bind(context);
  try {
    const response = await handleDelivery(
      {
        client: runtime.client,
        state,
        signingSecrets,
        toleranceSeconds: env.WEBHOOK_TOLERANCE_SECONDS,
        takeoverSeconds: env.WEBHOOK_CLAIM_TAKEOVER_SECONDS,
        warn: (message, error) =>
          obs.logger.warn(message, error === undefined ? {} : { error: loggableError(error) }),
      },
      event,
    );
    obs.metrics.addMetric(`Webhook${Math.floor(response.statusCode / 100)}xx`, MetricUnit.Count, 1);
    if (response.statusCode >= 400)
      obs.logger.warn('webhook refused', { status: response.statusCode, body: response.body });
    return response;
  } catch (error) {
    // Our own storage failing is still not the caller's business: a 503 with no stack.
    obs.logger.error('webhook failed', { error: loggableError(error) });
    return refuse(
      503,
      'temporarily_unavailable',
      'the webhook could not be processed; retry later',
    );
  }
});
