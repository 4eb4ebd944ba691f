import { CreateSecretCommand } from '@aws-sdk/client-secrets-manager';
import type { CloudFormationCustomResourceCreateEvent } from 'aws-lambda';
import { onKeyEvent } from '../../functions/page-link-key/key-resource.js';
import { type AwsClients, SecretStore } from '../../lib/aws/index.js';

/**
 * Where links point in a local run: no CloudFront here, so a name that can never resolve
 * (`.invalid`, RFC 6761) stands in for the report site's domain, and says so.
 */
export const LOCAL_PAGE_ORIGIN = 'https://pages.example.invalid';
/** Stands in for the id CloudFront gives the public key. */
export const LOCAL_KEY_PAIR_ID = 'KLOCALSKYWATCH1';

export interface LocalPageLinks {
  origin: string;
  keyPairId: string;
  secretArn: string;
  /** What the stack's key group would trust; links are checked against it locally. */
  publicKey: string;
}

/**
 * The report site's key as the stack makes it: an empty secret, then the key resource's own
 * Create (functions/page-link-key) writes a fresh key pair to it and answers the public key.
 */
export async function provisionPageLinks(
  clients: AwsClients,
  name: string,
): Promise<LocalPageLinks> {
  const secret = await clients.secrets.send(
    new CreateSecretCommand({ Name: `${name}/page-link-key`, SecretString: '{}' }),
  );
  const secretArn = secret.ARN ?? '';
  const create: CloudFormationCustomResourceCreateEvent = {
    RequestType: 'Create',
    ServiceToken: 'local',
    ResponseURL: 'https://cloudformation.example.invalid/response',
    StackId: 'local',
    RequestId: 'local',
    LogicalResourceId: 'PageLinkKeyKeyPair',
    ResourceType: 'Custom::SkywatchPageLinkKey',
    ResourceProperties: { ServiceToken: 'local', SecretArn: secretArn, KeyVersion: '1' },
  };
  const created = await onKeyEvent(create, new SecretStore(clients.secrets));
  return {
    origin: LOCAL_PAGE_ORIGIN,
    keyPairId: LOCAL_KEY_PAIR_ID,
    secretArn,
    publicKey: created.Data?.PublicKeyPem ?? '',
  };
}

/** The environment the stack gives the functions that sign links (infra/functions.ts). */
export function pageLinkEnv(links: LocalPageLinks, days = 7): Record<string, string> {
  return {
    PAGE_LINK_ORIGIN: links.origin,
    PAGE_LINK_KEY_PAIR_ID: links.keyPairId,
    PAGE_LINK_KEY_SECRET_ARN: links.secretArn,
    PAGE_LINK_DAYS: String(days),
  };
}
