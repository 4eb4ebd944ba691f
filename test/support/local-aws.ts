import { randomBytes } from 'node:crypto';
import { type AwsClients, createAwsClients } from '../../lib/aws/index.js';
import {
  type MotoServer,
  type StartMotoOptions,
  startMoto,
} from '../../scripts/local/moto-server.js';
import { type LocalResources, provision } from '../../scripts/local/provision.js';

export interface LocalAws {
  moto: MotoServer;
  clients: AwsClients;
  /** Fresh resources with a unique name, so suites sharing one moto never collide. */
  provision(credentials?: Record<string, unknown>): Promise<LocalResources>;
}

export const LOCAL_CREDENTIALS = { accessKeyId: 'testing', secretAccessKey: 'testing' };

/** `moto.env` reaches moto's process, e.g. a smaller `S3_UPLOAD_PART_MIN_SIZE` for one suite. */
export async function startLocalAws(
  options: { moto?: Pick<StartMotoOptions, 'env'> } = {},
): Promise<LocalAws> {
  const moto = await startMoto(options.moto);
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
