import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { SecretStore, secretsClient } from '../../lib/aws/index.js';
import { lambda, observability } from '../shared/observability.js';
import { onKeyEvent } from './key-resource.js';

/**
 * page-link-key: the custom resource that makes the report site's signing key at deploy time
 * (infra/constructs/page-link-key.ts).
 */
const obs = await observability('page-link-key');
const store = new SecretStore(secretsClient());

export const handler = lambda(obs, async (event: CloudFormationCustomResourceEvent) => {
  const result = await onKeyEvent(event, store);
  obs.logger.info('page link key', {
    requestType: event.RequestType,
    physicalResourceId: result.PhysicalResourceId,
  });
  return result;
});
