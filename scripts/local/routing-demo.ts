import { PutParameterCommand, type SSMClient } from '@aws-sdk/client-ssm';
import { ROUTING_SCHEMA, type RoutingDocument } from '../../lib/alerts/index.js';

interface Site {
  key: string;
  name: string;
}

/**
 * The local run's routing (docs/operations.md, "Routing"): one customer's site to a Slack
 * channel of its own and the PSA webhook with its company id, another site nowhere, the rest
 * to the four destinations as before.
 */
export function demoRouting(customer: Site, quiet: Site): RoutingDocument {
  return {
    schema: ROUTING_SCHEMA,
    routes: [
      // By name, as an operator writes it; a keycode matches too.
      {
        name: 'acme',
        match: { site: [customer.name] },
        destinations: ['acme-slack', 'webhook'],
        fields: { psaCompanyId: 42 },
      },
      { name: 'quiet', match: { site: [quiet.key] }, destinations: [] },
    ],
    default: { destinations: ['slack', 'teams', 'pagerduty', 'webhook'] },
  };
}

/** What `aws ssm put-parameter --overwrite` does: the alerter reads it within its cache's age. */
export async function putRouting(ssm: SSMClient, name: string, doc: RoutingDocument) {
  await ssm.send(
    new PutParameterCommand({
      Name: name,
      Type: 'String',
      Value: JSON.stringify(doc),
      Overwrite: true,
    }),
  );
}

/** One line per route: `acme: site Acme Dental → acme-slack, webhook {"psaCompanyId":42}`. */
export function routingLines(doc: RoutingDocument): string[] {
  const to = (d: string[]) => (d.length > 0 ? d.join(', ') : 'nowhere');
  const lines = doc.routes.map((r) => {
    const match = Object.entries(r.match)
      .map(([field, values]) => `${field} ${(values as string[]).join(' or ')}`)
      .join(' and ');
    const fields = r.fields ? ` ${JSON.stringify(r.fields)}` : '';
    return `${r.name}: ${match} → ${to(r.destinations)}${fields}`;
  });
  return [...lines, `default: any other alert → ${to(doc.default.destinations)}`];
}
