import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import type { SecretStore } from '../../lib/aws/index.js';
import { registerSecret } from '../../lib/errors/index.js';
import { generatePageLinkKey, publicKeyOf } from '../../lib/links/page-link-key.js';
import * as z from '../../lib/zod.js';

const NonEmpty = z.string().check(z.minLength(1));

/** What the stack passes (infra/constructs/page-link-key.ts); CloudFormation sends strings. */
const KeyProps = z.object({ SecretArn: NonEmpty, KeyVersion: NonEmpty });

const VersionedKey = z.object({
  privateKey: z.optional(z.string()),
  keyVersion: z.optional(z.string()),
});

/**
 * The secret as it may be found: `{}` before the first key, the current key with its version,
 * and the one before it, kept so a deployment that fails after a rotation rolls back to a key
 * that still matches the public key CloudFront trusts again.
 */
const StoredKey = z.object({ ...VersionedKey.shape, previous: z.optional(VersionedKey) });
type Versioned = z.infer<typeof VersionedKey>;

export interface KeyResourceResult {
  PhysicalResourceId: string;
  Data?: { PublicKeyPem: string };
}

/**
 * The page links' key pair as a CloudFormation resource (through the CDK provider framework).
 * Create and Update answer the public key of the stored key of the asked `KeyVersion`: kept as
 * it is, restored from `previous` (a rollback), or made anew (the first deploy, a rotation),
 * the private key written to the stack's secret. Delete leaves the secret to its own resource.
 * The private key never leaves Secrets Manager: not in the answer, the template or a log line.
 */
export async function onKeyEvent(
  event: CloudFormationCustomResourceEvent,
  store: SecretStore,
): Promise<KeyResourceResult> {
  if (event.RequestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId };
  const { SecretArn: secretArn, KeyVersion: version } = z.parse(KeyProps, event.ResourceProperties);
  const stored = await store.read(secretArn, StoredKey, { maxAgeMs: 0 });
  const current = usable(stored);
  const previous = usable(stored.previous);
  let publicKey: string;
  if (current && stored.keyVersion === version) {
    publicKey = current;
  } else if (previous && stored.previous?.keyVersion === version) {
    publicKey = previous;
    await store.write(secretArn, {
      ...stored.previous,
      previous: current ? versioned(stored) : undefined,
    });
  } else {
    const pair = generatePageLinkKey();
    registerSecret(pair.privateKey);
    publicKey = pair.publicKey;
    await store.write(secretArn, {
      privateKey: pair.privateKey,
      keyVersion: version,
      previous: current ? versioned(stored) : undefined,
    });
  }
  return { PhysicalResourceId: `page-link-key-v${version}`, Data: { PublicKeyPem: publicKey } };
}

const versioned = (key: Versioned): Versioned => ({
  privateKey: key.privateKey,
  keyVersion: key.keyVersion,
});

/** The public key of a stored private key; none when it holds no usable key (an edit). */
function usable(key: Versioned | undefined): string | undefined {
  if (!key?.privateKey) return undefined;
  registerSecret(key.privateKey);
  try {
    return publicKeyOf(key.privateKey);
  } catch {
    return undefined;
  }
}
