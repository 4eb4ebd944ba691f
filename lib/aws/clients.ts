import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { SSMClient } from '@aws-sdk/client-ssm';

/**
 * SDK clients for the adapters. In AWS nothing needs setting; locally `AWS_ENDPOINT_URL`
 * (which the SDK reads itself) points every client at moto, and S3 then needs path-style
 * addressing because bucket subdomains of 127.0.0.1 do not resolve.
 *
 * One factory per service, so a function's bundle holds only the SDK clients it constructs:
 * each client package costs tens of milliseconds of cold start to load.
 */
export interface AwsClientOptions {
  endpoint?: string;
  region?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** Wraps a client as it is created, e.g. to trace its calls; returns the client to use. */
export type AwsClientHook = <C extends object>(client: C) => C;

let clientHook: AwsClientHook = (client) => client;

/**
 * Has every client created from now on pass through `hook`; answers a function that undoes it. lib/ knows nothing of tracing; a
 * function's observability sets this before it builds its clients (Powertools' Tracer captures
 * each call as an X-Ray subsegment).
 *
 * @example
 * instrumentAwsClients((client) => tracer.captureAWSv3Client(client));
 */
export function instrumentAwsClients(hook: AwsClientHook): () => void {
  const previous = clientHook;
  clientHook = hook;
  return () => {
    clientHook = previous;
  };
}

function common(options: AwsClientOptions) {
  const endpoint = options.endpoint ?? process.env.AWS_ENDPOINT_URL;
  return {
    // The middleware stack is resolved once per command class instead of at every call, which
    // about halves the SDK's own CPU per call. Nothing here changes a client's or a command's
    // middleware after its first call: a hook (tracing, a test's counter) adds it at creation.
    cacheMiddleware: true,
    region: options.region ?? process.env.AWS_REGION ?? 'us-east-1',
    ...(endpoint ? { endpoint } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
  };
}

/**
 * @example
 * const store = new ReportStore(s3Client(), process.env.REPORT_BUCKET);
 */
export function s3Client(options: AwsClientOptions = {}): S3Client {
  const config = common(options);
  return clientHook(new S3Client({ ...config, forcePathStyle: config.endpoint !== undefined }));
}

/** @example const alerts = new AlertPublisher(snsClient(), topicArn); */
export function snsClient(options: AwsClientOptions = {}): SNSClient {
  return clientHook(new SNSClient(common(options)));
}

/** @example const queue = sqsClient(); */
export function sqsClient(options: AwsClientOptions = {}): SQSClient {
  return clientHook(new SQSClient(common(options)));
}

/** @example const secrets = new SecretStore(secretsClient()); */
export function secretsClient(options: AwsClientOptions = {}): SecretsManagerClient {
  return clientHook(new SecretsManagerClient(common(options)));
}

/** @example const routing = new RoutingParameter(ssmClient(), parameterName); */
export function ssmClient(options: AwsClientOptions = {}): SSMClient {
  return clientHook(new SSMClient(common(options)));
}

/** Every client, for tools and tests that talk to every service (moto, the local run). */
export interface AwsClients {
  s3: S3Client;
  sns: SNSClient;
  sqs: SQSClient;
  secrets: SecretsManagerClient;
  ssm: SSMClient;
}

export function createAwsClients(options: AwsClientOptions = {}): AwsClients {
  return {
    s3: s3Client(options),
    sns: snsClient(options),
    sqs: sqsClient(options),
    secrets: secretsClient(options),
    ssm: ssmClient(options),
  };
}
