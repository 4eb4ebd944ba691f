import { SkywatchClient, type SkywatchClientOptions } from '../lib/index.js';
import { DEMO_AUTH } from '../scripts/local/function-env.js';

/** A client of the emulator with its demo credentials. */
export function demoClient(
  emulator: { baseUrl: string; authUrl: string },
  options: Partial<SkywatchClientOptions> = {},
): SkywatchClient {
  return new SkywatchClient({
    baseUrl: emulator.baseUrl,
    authUrl: emulator.authUrl,
    auth: DEMO_AUTH,
    ...options,
  });
}
