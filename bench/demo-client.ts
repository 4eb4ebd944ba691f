import { SkywatchClient, type SkywatchClientOptions } from '../lib/index.js';

/** A client of the emulator with its demo credentials. */
export function demoClient(
  emulator: { baseUrl: string; authUrl: string },
  options: Partial<SkywatchClientOptions> = {},
): SkywatchClient {
  return new SkywatchClient({
    baseUrl: emulator.baseUrl,
    authUrl: emulator.authUrl,
    auth: {
      clientId: 'skywatch-demo',
      clientSecret: 'demo-client-secret',
      username: 'ops@example.com',
      password: 'demo-password',
    },
    ...options,
  });
}
