import { gunzipSync } from 'node:zlib';
import {
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import type { Context } from 'aws-lambda';
import { type Emulator, type EmulatorOptions, startEmulator } from '../../emulator/index.js';
import { type HealthAlert, parseChatbotMessage } from '../../lib/alerts/index.js';
import { generateSigningSecret } from '../../lib/webhooks/index.js';
import { demoCredentials, functionEnv } from '../../scripts/local/function-env.js';
import { type FunctionName, loadHandler } from '../../scripts/local/functions.js';
import { lambdaContext } from '../../scripts/local/lambda-context.js';
import { drainAlerts, type LocalResources } from '../../scripts/local/provision.js';
import { type LocalAws, startLocalAws } from './local-aws.js';

/**
 * The whole product for an integration suite: the emulator, moto, the resources the stack
 * would create, and the real handlers loaded with the environment the stack would give them.
 * One per test file: each file loads the handlers afresh and its environment is taken back at
 * its end (test/support/fresh-modules.ts), so environments never mix.
 */
export interface Product {
  emulator: Emulator;
  aws: LocalAws;
  res: LocalResources;
  gsm: string;
  webhookSecret: string;
  run<T = unknown>(name: FunctionName, event?: unknown, context?: Context): Promise<T>;
  /** Blocked-URL spike alerts (skywatch.alert/v1) received since the last call. */
  alerts(): Promise<Record<string, unknown>[]>;
  /** Health alert events (skywatch.alert/v2, Chatbot format) received since the last call. */
  healthAlerts(): Promise<ReceivedHealthAlert[]>;
  /** Daily digests (Chatbot format, skywatch.digest/v1) received since the last call. */
  digests(): Promise<Record<string, unknown>[]>;
  objects(prefix?: string): Promise<{ key: string; size: number; etag: string }[]>;
  /** The records of a gzip NDJSON object in the bucket, parsed. */
  lines(key: string): Promise<Record<string, unknown>[]>;
  /** The emulator's date `offset` days from its now, as YYYY-MM-DD. */
  day(offset: number): string;
  tokenSecret(): Promise<{ accessToken: string; refreshToken: string; expiresAt: string }>;
  close(): Promise<void>;
}

export type ReceivedHealthAlert = HealthAlert & {
  attributes: Record<string, { Value: string }>;
  chatbot: Record<string, unknown>;
};

/**
 * Turns the `offline` health kind off in a bucket's alert rules: on an emulator clock set in
 * the past every endpoint would be offline by the functions' clock. Every other kind, `infected`
 * among them, is judged as deployed.
 */
export async function offlineOffForPastClock(s3: S3Client, bucket: string): Promise<void> {
  await s3.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: 'state/config/alert-rules.json',
      Body: JSON.stringify({ kinds: { offline: { enabled: false } } }),
    }),
  );
}

export async function startProduct(
  options: EmulatorOptions = {},
  extraEnv: Record<string, string> = {},
): Promise<Product> {
  const emulator = await startEmulator({
    seed: 5,
    gsmCount: 1,
    sitesPerGsm: 5,
    endpointsPerGsm: 150,
    ...options,
  });
  const aws = await startLocalAws();
  const webhookSecret = generateSigningSecret();
  const res = await aws.provision(demoCredentials(webhookSecret));
  const gsm = emulator.info().gsms[0]?.key ?? '';
  Object.assign(process.env, functionEnv(res, emulator, aws.moto.endpoint, [gsm]), {
    POWERTOOLS_LOG_LEVEL: 'CRITICAL',
    POWERTOOLS_METRICS_DISABLED: 'true',
    // Tests run the refresher themselves; nobody else will rotate a rejected token meanwhile.
    TOKEN_WAIT_SECONDS: '0',
    ...extraEnv,
  });
  if (options.now !== undefined) await offlineOffForPastClock(aws.clients.s3, res.bucket);
  // One inbox holds both kinds of message: drained together, handed out separately.
  let v1: Record<string, unknown>[] = [];
  let v2: ReceivedHealthAlert[] = [];
  let digests: Record<string, unknown>[] = [];
  const drain = async () => {
    for (const m of await drainAlerts(aws.clients, res.alertQueueUrl)) {
      const context = (m.metadata as { additionalContext?: Record<string, string> } | undefined)
        ?.additionalContext;
      if (context?.skywatchDigest) digests.push(JSON.parse(context.skywatchDigest));
      else if (m.source === 'custom') {
        const { snsSubject: _s, attributes, ...chatbot } = m;
        v2.push({
          ...parseChatbotMessage(JSON.stringify(chatbot)),
          attributes: attributes as ReceivedHealthAlert['attributes'],
          chatbot,
        });
      } else v1.push(m);
    }
  };
  return {
    emulator,
    aws,
    res,
    gsm,
    webhookSecret,
    run: async (name, event = {}, context) =>
      (await loadHandler(name))(event, context ?? lambdaContext(name)) as never,
    alerts: async () => {
      await drain();
      const out = v1;
      v1 = [];
      return out;
    },
    digests: async () => {
      await drain();
      const out = digests;
      digests = [];
      return out;
    },
    healthAlerts: async () => {
      await drain();
      const out = v2;
      v2 = [];
      return out;
    },
    objects: async (prefix = '') => {
      const out = await aws.clients.s3.send(
        new ListObjectsV2Command({ Bucket: res.bucket, Prefix: prefix }),
      );
      return (out.Contents ?? []).map((o) => ({
        key: o.Key ?? '',
        size: o.Size ?? 0,
        etag: o.ETag ?? '',
      }));
    },
    lines: async (key) => {
      const out = await aws.clients.s3.send(new GetObjectCommand({ Bucket: res.bucket, Key: key }));
      const bytes = Buffer.from(await (out.Body?.transformToByteArray() ?? new Uint8Array()));
      return gunzipSync(bytes)
        .toString()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    },
    day: (offset) =>
      new Date(emulator.now().getTime() + offset * 86_400_000).toISOString().slice(0, 10),
    tokenSecret: async () => {
      const out = await aws.clients.secrets.send(
        new GetSecretValueCommand({ SecretId: res.tokenSecretArn }),
      );
      return JSON.parse(out.SecretString ?? '{}');
    },
    close: async () => {
      await aws.moto.stop();
      await emulator.close();
    },
  };
}
