import { randomBytes } from 'node:crypto';
import { type AwsClients, createAwsClients } from '../../lib/aws/index.js';
import { type MotoServer, startMoto } from '../../scripts/local/moto-server.js';
import { type LocalResources, provision } from '../../scripts/local/provision.js';

export interface LocalAws {
  moto: MotoServer;
  clients: AwsClients;
  /** Fresh resources with a unique name, so suites sharing one moto never collide. */
  provision(credentials?: Record<string, unknown>): Promise<LocalResources>;
}

export const LOCAL_CREDENTIALS = { accessKeyId: 'testing', secretAccessKey: 'testing' };

export async function startLocalAws(): Promise<LocalAws> {
  const moto = await startMoto();
  const clients = createAwsClients({
    endpoint: moto.endpoint,
    region: 'us-east-1',
    credentials: LOCAL_CREDENTIALS,
  });
  return {
    moto,
    clients,
    provision: (credentials = { clientId: 'x', clientSecret: 'y' }) =>
      provision(clients, `sw-${randomBytes(4).toString('hex')}`, credentials),
  };
}
