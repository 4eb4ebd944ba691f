import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../emulator/index.js';
import golden from './golden/blocked-url-counts.json' with { type: 'json' };
import { blockedUrlCases, COUNT_CONFIGS, defaultWindowCounts } from './golden/cases.js';

type Recorded = Record<string, number[]>;
const recorded = golden as unknown as Record<string, Recorded>;

/** The recorded default-window counts of a dataset, before any admin change. */
function recordedBefore(config: string): Recorded {
  const out: Recorded = {};
  for (const [k, v] of Object.entries(recorded[config] ?? {})) {
    if (k.startsWith('before.') && k !== 'before.long') out[k.slice('before.'.length)] = v;
  }
  return out;
}

describe('Blocked-URL counts (4.9): golden figures', () => {
  it.each(Object.keys(COUNT_CONFIGS))(
    'gives the %s dataset the counts recorded before the speed work, admin changes included',
    async (config) => {
      const em = await startEmulator(COUNT_CONFIGS[config]);
      try {
        const expected = recorded[config] ?? {};
        expect(Object.keys(expected).length).toBeGreaterThan(20);
        expect(await blockedUrlCases(em)).toEqual(expected);
      } finally {
        await em.close();
      }
    },
  );
});

describe('Blocked-URL counts (4.9): one cache per emulator', () => {
  it('gives two emulators of one seed but different sizes, run side by side, the counts each gives alone', async () => {
    // Same seed, so the same site ids: a cache shared by the process would mix them up.
    const small = await startEmulator(COUNT_CONFIGS.small);
    const medium = await startEmulator(COUNT_CONFIGS.medium);
    try {
      expect(small.info().gsms[0]?.sites[0]?.id).toBe(medium.info().gsms[0]?.sites[0]?.id);
      expect(await defaultWindowCounts(small)).toEqual(recordedBefore('small'));
      expect(await defaultWindowCounts(medium)).toEqual(recordedBefore('medium'));
      expect(await defaultWindowCounts(small)).toEqual(recordedBefore('small'));
      expect(recordedBefore('small')).not.toEqual(recordedBefore('medium'));
    } finally {
      await Promise.all([small.close(), medium.close()]);
    }
  });

  it("does not let one emulator's admin changes reach another's counts", async () => {
    const changed = await startEmulator(COUNT_CONFIGS.small);
    const untouched = await startEmulator(COUNT_CONFIGS.small);
    try {
      const site = changed.info().gsms[0]?.sites[0];
      const day = new Date(changed.now().getTime() - 86_400_000).toISOString().slice(0, 10);
      await defaultWindowCounts(untouched);
      changed.addBlockedUrls(site?.id ?? '', day, 5_000);
      for (const id of changed.machineIds(site?.key ?? '', 30)) changed.endpointAction(id, 'hide');
      expect(await defaultWindowCounts(changed)).not.toEqual(recordedBefore('small'));
      expect(await defaultWindowCounts(untouched)).toEqual(recordedBefore('small'));
    } finally {
      await Promise.all([changed.close(), untouched.close()]);
    }
  });
});
