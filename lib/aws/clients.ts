import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';

/**
 * SDK clients for the adapters. In AWS nothing needs setting; locally `AWS_ENDPOINT_URL`
 * (which the SDK reads itself) points every client at moto, and S3 then needs path-style
 * addressing because bucket subdomains of 127.0.0.1 do not resolve.
 */
export interface AwsClients {
  s3: S3Client;
  sns: SNSClient;
  sqs: SQSClient;
  secrets: SecretsManagerClient;
}

export interface AwsClientOptions {
  endpoint?: string;
  region?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

export function createAwsClients(options: AwsClientOptions = {}): AwsClients {
  const endpoint = options.endpoint ?? process.env.AWS_ENDPOINT_URL;
  const common = {
    region: options.region ?? process.env.AWS_REGION ?? 'us-east-1',
    ...(endpoint ? { endpoint } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
  };
  return {
    s3: new S3Client({ ...common, forcePathStyle: endpoint !== undefined }),
    sns: new SNSClient(common),
    sqs: new SQSClient(common),
    secrets: new SecretsManagerClient(common),
  };
}
