import { createHash } from 'node:crypto';
import { TokenStore } from './auth/token-store.js';
import { Clock } from './clock.js';
import { BlockedUrlCounts, type Spikes } from './data/blocked-urls.js';
import { type Cart, seedCarts } from './data/carts.js';
import { Dataset } from './data/dataset.js';
import { EndpointChanges } from './data/endpoint-state.js';
import { startOfDay } from './data/time-format.js';
import { FaultEngine } from './http/faults.js';
import type { ResolvedOptions } from './options.js';
import type { EmulatorStats } from './types.js';

/** Everything a running emulator knows; routes read it, the admin API changes it. */
export interface EmulatorState {
  options: ResolvedOptions;
  clock: Clock;
  data: Dataset;
  changes: EndpointChanges;
  spikes: Spikes;
  /** 4.9 counts, cached per emulator: two emulators in one process never share figures. */
  blockedUrls: BlockedUrlCounts;
  carts: Map<string, Cart>;
  tokens: TokenStore;
  faults: FaultEngine;
  stats: EmulatorStats;
  /** Key that signs continuation tokens (derived from the seed, so tokens survive a restart). */
  pagingKey: Buffer;
  baseUrl: string;
  authUrl: string;
}

export function emptyStats(): EmulatorStats {
  return {
    requests: 0,
    byOperation: {},
    tokenGrants: { password: 0, token_exchange: 0, refresh_token: 0, failed: 0 },
    faultsInjected: 0,
  };
}

export function createState(options: ResolvedOptions, origin: string): EmulatorState {
  const clock = new Clock(options.now);
  const data = new Dataset({
    seed: options.seed,
    gsmCount: options.gsmCount,
    sitesPerGsm: options.sitesPerGsm,
    endpointsPerGsm: options.endpointsPerGsm,
    anchor: startOfDay(clock.now()),
  });
  const changes = new EndpointChanges();
  const spikes: Spikes = new Map();
  return {
    options,
    clock,
    data,
    changes,
    spikes,
    blockedUrls: new BlockedUrlCounts(data, changes, spikes),
    carts: new Map(seedCarts(options.seed, options.cartCount).map((c) => [c.vendorOrderCode, c])),
    tokens: new TokenStore(
      options.accessTokenTtlSeconds * 1000,
      options.refreshTokenTtlSeconds * 1000,
      options.reuseDetection,
    ),
    faults: new FaultEngine(options.seed, options.faults),
    stats: emptyStats(),
    pagingKey: createHash('sha256').update(`skywatch-emulator-paging-${options.seed}`).digest(),
    baseUrl: `${origin}/service`,
    authUrl: `${origin}/identity`,
  };
}
