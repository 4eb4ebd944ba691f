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

/**
 * The test run's moto for this worker slot, once it answers (test/support/moto-setup.ts).
 * Not ours to stop: the run stops it after the last suite.
 */
async function sharedMoto(url: string): Promise<MotoServer> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`the test run's shared moto did not start: ${await res.text()}`);
  const { endpoint, pid } = (await res.json()) as Pick<MotoServer, 'endpoint' | 'pid'>;
  return { endpoint, pid, stop: async () => {} };
}

/**
 * Local AWS endpoints: the test run's shared moto when there is one (SKYWATCH_TEST_MOTO, set by
 * test/support/shared-moto.ts), else a moto of its own. `moto.env` reaches moto's process, e.g.
 * a smaller `S3_UPLOAD_PART_MIN_SIZE` for one suite, and so always gets a moto of its own.
 */
export async function startLocalAws(
  options: { moto?: Pick<StartMotoOptions, 'env'> } = {},
): Promise<LocalAws> {
  const shared = process.env.SKYWATCH_TEST_MOTO;
  const moto =
    shared && options.moto?.env === undefined
      ? await sharedMoto(shared)
      : await startMoto(options.moto);
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
