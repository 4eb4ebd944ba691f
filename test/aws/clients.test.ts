import { GetObjectCommand, HeadBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAwsClients, instrumentAwsClients, s3Client } from '../../lib/aws/index.js';
import type { LocalResources } from '../../scripts/local/provision.js';
import { LOCAL_CREDENTIALS, type LocalAws, startLocalAws } from '../support/local-aws.js';

let aws: LocalAws;
let res: LocalResources;
beforeAll(async () => {
  aws = await startLocalAws();
  res = await aws.provision();
});
afterAll(async () => aws?.moto.stop());

const local = () => ({
  endpoint: aws.moto.endpoint,
  region: 'us-east-1',
  credentials: LOCAL_CREDENTIALS,
});

describe('AWS client factories', () => {
  it("resolve each command class's middleware once, for every service", async () => {
    const clients = createAwsClients(local());
    for (const [name, client] of Object.entries(clients))
      expect({ name, cached: await client.config.cacheMiddleware }).toEqual({ name, cached: true });
  });

  it('still run middleware a hook adds at creation on every call, of every command class', async () => {
    const seen: string[] = [];
    const undo = instrumentAwsClients((client) => {
      (client as S3Client).middlewareStack.add(
        (next, context) => (args) => {
          seen.push(String(context.commandName));
          return next(args);
        },
        { step: 'initialize', name: 'seen' },
      );
      return client;
    });
    const s3 = s3Client(local());
    undo();
    await s3.send(new HeadBucketCommand({ Bucket: res.bucket }));
    await s3.send(new HeadBucketCommand({ Bucket: res.bucket }));
    await expect(
      s3.send(new GetObjectCommand({ Bucket: res.bucket, Key: 'none.json' })),
    ).rejects.toThrow();
    expect(seen).toEqual(['HeadBucketCommand', 'HeadBucketCommand', 'GetObjectCommand']);
  });

  it('give each call its own input, though the handler of its class is shared', async () => {
    const s3 = s3Client(local());
    await s3.send(new HeadBucketCommand({ Bucket: res.bucket }));
    await expect(
      s3.send(new HeadBucketCommand({ Bucket: 'no-such-bucket-here' })),
    ).rejects.toThrow();
    await expect(s3.send(new HeadBucketCommand({ Bucket: res.bucket }))).resolves.toBeDefined();
  });
});
