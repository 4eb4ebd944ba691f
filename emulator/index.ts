import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Control } from './control.js';
import { resolveOptions } from './options.js';
import { createListener } from './server.js';
import { createState } from './state.js';
import type { Emulator, EmulatorOptions } from './types.js';

export { DEMO_CLIENT, DEMO_IDP, DEMO_USERS } from './options.js';
export type * from './types.js';

/**
 * Starts the service emulator on 127.0.0.1 (a free port unless one is given).
 *
 * @example
 * const emulator = await startEmulator({ seed: 7, now: '2026-06-15T12:00:00Z' });
 * const res = await fetch(emulator.tokenUrl, { method: 'POST', ... });
 * await emulator.close();
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const resolved = resolveOptions(options);
  const server = createServer();
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(resolved.port, resolved.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${resolved.host}:${port}`;
  const state = createState(resolved, origin);
  const control = new Control(state);
  server.on('request', createListener(state, control, origin));
  const adminUrl = `${origin}/__admin`;
  return {
    baseUrl: state.baseUrl,
    authUrl: state.authUrl,
    tokenUrl: `${state.authUrl}/auth/token`,
    adminUrl,
    port,
    info: () => control.info(adminUrl),
    now: () => new Date(state.clock.now()),
    advanceClock: (seconds) => control.advanceClock(seconds),
    setFaults: (faults) => control.setFaults(faults),
    endpointAction: (machineId, action, threat) =>
      control.endpointAction(machineId, action, threat),
    machineIds: (siteKey, limit) => control.machineIds(siteKey, limit),
    setSiteLicence: (siteKey, days) => control.setSiteLicence(siteKey, days),
    enrol: (siteKey, count) => control.enrol(siteKey, count),
    addBlockedUrls: (siteId, date, count) => control.addBlockedUrls(siteId, date, count),
    revokeTokens: () => control.revokeTokens(),
    stats: () => control.stats(),
    resetStats: () => control.resetStats(),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
