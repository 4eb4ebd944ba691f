import { type Emulator, type EmulatorOptions, startEmulator } from '../../../emulator/index.js';
import { type Clock, SkywatchClient, type SkywatchClientOptions } from '../../../lib/index.js';

export const NOW = '2026-06-15T12:00:00Z';

/**
 * The emulator's (frozen) time plus real elapsed time; sleeps only move a virtual offset, so
 * retries run at once while deadlines still hold.
 */
export function virtualClock(emu: Emulator) {
  let offset = 0;
  const started = Date.now();
  const sleeps: number[] = [];
  const clock: Clock = {
    now: () => emu.now().getTime() + (Date.now() - started) + offset,
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
      offset += ms;
    },
  };
  return { clock, sleeps };
}

/** Starts an emulator and describes its dataset for tests. */
export async function startWorld(options: EmulatorOptions = {}) {
  const emu: Emulator = await startEmulator({ now: NOW, seed: 3, ...options });
  const info = emu.info();
  const gsm = info.gsms[0];
  const site = gsm?.sites[0];
  const dnspSite = gsm?.sites.find((s) => s.dnspEnabled && s.endpointCount > 0);
  const resellerCart = info.carts.find((c) => c.type === 'reseller');
  const standardCart = info.carts.find((c) => c.type === 'standard');
  if (!gsm || !site || !dnspSite || !resellerCart || !standardCart)
    throw new Error('dataset lacks parts');
  const ops = info.users.find((u) => u.username === 'ops@example.com');
  if (!ops) throw new Error('no ops user');
  const client = (extra: Partial<SkywatchClientOptions> = {}) =>
    new SkywatchClient({
      baseUrl: emu.baseUrl,
      authUrl: emu.authUrl,
      auth: {
        clientId: info.client.clientId,
        clientSecret: info.client.clientSecret,
        username: ops.username,
        password: ops.password,
      },
      clock: virtualClock(emu).clock,
      ...extra,
    });
  return { emu, info, gsm, site, dnspSite, resellerCart, standardCart, ops, client };
}

export type World = Awaited<ReturnType<typeof startWorld>>;

export const CUSTOMER = {
  FirstName: 'Grace',
  LastName: 'Lovelace',
  Address1: '2 Engine Row',
  Address2: null,
  City: 'London',
  PostalCode: 'N1 9GU',
  State: '',
  Country: 'GB',
  CustomerEmail: 'grace@example.co.uk',
  CompanyName: 'Analytical Ltd',
  CompanyTypeId: 1,
  ExternalCustomerKey: 'EXT-1',
  OptIn: true,
};
