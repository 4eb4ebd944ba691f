import { PutSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { onKeyEvent } from '../../functions/page-link-key/key-resource.js';
import { SecretStore } from '../../lib/aws/secret-store.js';
import { publicKeyOf } from '../../lib/links/page-link-key.js';

const ARN = 'arn:aws:secretsmanager:us-east-1:111122223333:secret:page-links';

/** Secrets Manager holding one secret in memory, counting the writes. */
function secretHolding(initial: unknown) {
  const held = { value: JSON.stringify(initial), writes: 0 };
  const client = {
    send: async (command: { input: { SecretString?: string } }) => {
      if (command instanceof PutSecretValueCommand) {
        held.value = command.input.SecretString ?? '';
        held.writes++;
        return {};
      }
      return { SecretString: held.value };
    },
  } as unknown as SecretsManagerClient;
  return { held, store: () => new SecretStore(client) };
}

const event = (
  RequestType: 'Create' | 'Update' | 'Delete',
  KeyVersion: string,
  PhysicalResourceId = 'page-link-key-v1',
) =>
  ({
    RequestType,
    PhysicalResourceId,
    ResourceProperties: { ServiceToken: 'arn:fn', SecretArn: ARN, KeyVersion },
  }) as unknown as CloudFormationCustomResourceEvent;

const stored = (held: { value: string }) =>
  JSON.parse(held.value) as { privateKey: string; keyVersion: string; previous?: unknown };

describe('Function: onKeyEvent (the page link key resource)', () => {
  it('makes a key on Create: the private key in the secret, its public key in the answer', async () => {
    const { held, store } = secretHolding({});
    const out = await onKeyEvent(event('Create', '1'), store());
    expect(out.PhysicalResourceId).toBe('page-link-key-v1');
    expect(out.Data?.PublicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(publicKeyOf(stored(held).privateKey)).toBe(out.Data?.PublicKeyPem);
    expect(stored(held).keyVersion).toBe('1');
    expect(JSON.stringify(out)).not.toContain('PRIVATE KEY');
  });

  it('keeps the key on an Update of the same version, and on a retried Create', async () => {
    const { held, store } = secretHolding({});
    const first = await onKeyEvent(event('Create', '1'), store());
    const update = await onKeyEvent(event('Update', '1'), store());
    const retry = await onKeyEvent(event('Create', '1'), store());
    expect(update).toEqual(first);
    expect(retry).toEqual(first);
    expect(held.writes).toBe(1);
  });

  it('rotates on a new version, and a rollback restores the key CloudFront trusts again', async () => {
    const { held, store } = secretHolding({});
    const v1 = await onKeyEvent(event('Create', '1'), store());
    const v2 = await onKeyEvent(event('Update', '2'), store());
    expect(v2.PhysicalResourceId).toBe('page-link-key-v2');
    expect(v2.Data?.PublicKeyPem).not.toBe(v1.Data?.PublicKeyPem);
    expect(publicKeyOf(stored(held).privateKey)).toBe(v2.Data?.PublicKeyPem);

    const back = await onKeyEvent(event('Update', '1', 'page-link-key-v2'), store());
    expect(back).toEqual(v1);
    expect(publicKeyOf(stored(held).privateKey)).toBe(v1.Data?.PublicKeyPem);
  });

  it('replaces a secret an operator left without a usable key', async () => {
    const { held, store } = secretHolding({
      privateKey: 'pasted the wrong thing',
      keyVersion: '1',
    });
    const out = await onKeyEvent(event('Update', '1'), store());
    expect(publicKeyOf(stored(held).privateKey)).toBe(out.Data?.PublicKeyPem);
    expect(stored(held).previous).toBeUndefined();
  });

  it('leaves the secret alone on Delete', async () => {
    const { held, store } = secretHolding({ privateKey: 'x' });
    const out = await onKeyEvent(event('Delete', '1', 'page-link-key-v3'), store());
    expect(out).toEqual({ PhysicalResourceId: 'page-link-key-v3' });
    expect(held.writes).toBe(0);
  });

  it('refuses an event without the secret to write to', async () => {
    const { store } = secretHolding({});
    const bad = {
      RequestType: 'Create',
      ResourceProperties: { ServiceToken: 'arn:fn', KeyVersion: '1' },
    } as unknown as CloudFormationCustomResourceEvent;
    await expect(onKeyEvent(bad, store())).rejects.toThrow(/SecretArn/);
  });
});
