import { NOTIFIER_QUEUE } from '../../infra/config/notifier-queue.js';
import type { LocalResources } from './provision.js';

/** The environment the CDK stack would give the functions, pointed at local endpoints. */
export function functionEnv(
  res: LocalResources,
  service: { baseUrl: string; authUrl: string },
  awsEndpoint: string,
  gsmKeys: string[],
): Record<string, string> {
  return {
    AWS_ENDPOINT_URL: awsEndpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'testing',
    AWS_SECRET_ACCESS_KEY: 'testing',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    SKYWATCH_BASE_URL: service.baseUrl,
    SKYWATCH_AUTH_URL: service.authUrl,
    CREDENTIALS_SECRET_ARN: res.credentialsSecretArn,
    TOKEN_SECRET_ARN: res.tokenSecretArn,
    REPORT_BUCKET: res.bucket,
    ALERT_TOPIC_ARN: res.topicArn,
    ARCHIVE_QUEUE_URL: res.archiveQueueUrl,
    GSM_KEYS: gsmKeys.join(','),
    NOTIFIER_SECRET_ARN: res.notifierSecretArn,
    NOTIFIER_QUEUE_URL: res.notifierQueueUrl,
    NOTIFIER_DLQ_URL: res.notifierDlqUrl,
    NOTIFIER_MAX_RECEIVES: String(NOTIFIER_QUEUE.maxReceiveCount),
    ALERT_ROUTING_PARAMETER: res.routingParameter,
    ALERT_MUTES_PARAMETER: res.mutesParameter,
    POWERTOOLS_METRICS_NAMESPACE: 'Skywatch',
    // No X-Ray daemon here: the tracer stays off (it is off outside Lambda anyway; this says so).
    POWERTOOLS_TRACE_ENABLED: 'false',
  };
}

/** The emulator's demo client and its ops user, as a client's `auth` takes them. */
export const DEMO_AUTH = {
  clientId: 'skywatch-demo',
  clientSecret: 'demo-client-secret',
  username: 'ops@example.com',
  password: 'demo-password',
} as const;

/** Demo credentials secret for the emulator's demo client and user. */
export function demoCredentials(webhookSigningSecret: string): Record<string, string> {
  return { ...DEMO_AUTH, webhookSigningSecret };
}
