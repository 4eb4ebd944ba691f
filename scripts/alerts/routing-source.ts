import { readFile } from 'node:fs/promises';
import { GetParameterCommand, type SSMClient } from '@aws-sdk/client-ssm';
import { parseRoutingText, type RoutingDocument } from '../../lib/alerts/index.js';
import { ssmClient } from '../../lib/aws/index.js';

/**
 * Where the commands read a routing document: a file being written, or the deployed SSM
 * parameter. Unlike the alerter, which falls back to the default destinations, a command says
 * what is wrong (RoutingDocumentError lists every problem with its path).
 */
export async function routingFromFile(path: string): Promise<RoutingDocument> {
  return parseRoutingText(await readFile(path, 'utf8'));
}

/** The document in the parameter (stack output AlertRoutingParameter), read now. */
export async function routingFromParameter(
  name: string,
  ssm: SSMClient = ssmClient(),
): Promise<RoutingDocument> {
  const out = await ssm.send(new GetParameterCommand({ Name: name }));
  return parseRoutingText(out.Parameter?.Value ?? '');
}
