import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchemaError, type StatusOf, type SurpriseEvent } from '../../lib/index.js';
import { startWorld, type World } from './support/world.js';

let real: World;
beforeAll(async () => {
  // Every entry carries surprises: a null, most a blank, all an undocumented field.
  real = await startWorld({ profile: 'real', surpriseShare: 1 });
});
afterAll(() => real.emu.close());

/** Every page of a walk of 4.1–4.4 as sent, with the surprises reported on the way. */
async function walkAsSent(of: StatusOf) {
  const surprises: SurpriseEvent[] = [];
  const client = real.client({ onSurprise: (s) => surprises.push(s) });
  const entries: unknown[] = [];
  const texts: string[] = [];
  for await (const page of client.statusAsSent(of, { batchSize: 40 }).pages()) {
    entries.push(...page.entries);
    texts.push(...page.entryTexts());
  }
  return { entries, texts, surprises };
}

describe('Status pages as sent (4.1–4.4, entries unread)', () => {
  it('keeps each entry as the service sent it and counts no surprise in it', async () => {
    // Act
    const asSent = await walkAsSent({ kind: 'gsm', status: 'agent', keyCode: real.gsm.key });
    const typedTexts: string[] = [];
    let typedSurprises = 0;
    const typed = real.client({ onSurprise: () => typedSurprises++ });
    for await (const page of typed.gsmAgentStatus(real.gsm.key, { batchSize: 40 }).pages()) {
      typedTexts.push(...page.entryTexts());
    }
    // Assess: the same texts as the typed walk, which found surprises in every entry.
    expect(asSent.texts).toHaveLength(real.gsm.endpointCount);
    expect(asSent.texts).toEqual(typedTexts);
    expect(typedSurprises).toBeGreaterThan(real.gsm.endpointCount);
    expect(asSent.surprises).toEqual([]);
    // The values are the parsed text, nulls and undocumented fields included.
    expect(asSent.entries).toEqual(asSent.texts.map((t) => JSON.parse(t)));
    expect(asSent.entries.some((e) => (e as { LastSeen?: unknown }).LastSeen === null)).toBe(true);
  });

  it('reads a page whose entries break the contract, even in strict mode', async () => {
    // Prepare: the first entry's boolean sent as a string.
    real.emu.setFaults([{ operation: 'status.site', kind: 'wrong-type', count: 1 }]);
    const of = { kind: 'site', status: 'agent', keyCode: real.site.key } as const;
    // Act
    const page = await real.client({ strict: true }).statusAsSent(of, { batchSize: 5 }).firstPage();
    // Assess
    real.emu.setFaults([]);
    const first = JSON.parse(page.entryTexts()[0] ?? '{}') as Record<string, unknown>;
    const strings = JSON.stringify(first).match(/"(true|false)"/g) ?? [];
    expect(strings.length).toBeGreaterThan(0);
    expect(page.entries[0]).toEqual(first);
  });

  it('still fails a page whose envelope is unusable or whose body is not JSON', async () => {
    const of = { kind: 'gsm', status: 'dnsp', keyCode: real.gsm.key } as const;
    for (const kind of ['malformed', 'truncate'] as const) {
      // Prepare: every attempt of the page broken, so the client's retries cannot cure it.
      real.emu.setFaults([{ operation: 'status.gsm.dnsp', kind }]);
      // Act
      const error = await real
        .client({ retry: { maxAttempts: 2 } })
        .statusAsSent(of, { batchSize: 5 })
        .firstPage()
        .catch((e: unknown) => e);
      real.emu.setFaults([]);
      // Assess
      expect(error, kind).toBeInstanceOf(SchemaError);
    }
  });

  it('asks for the groups of 4.1 and 4.3 only, and each operation its own path', async () => {
    const urls: string[] = [];
    const client = real.client({ hooks: { onRequest: (r) => urls.push(r.url) } });
    const site = real.dnspSite.key;
    for (const status of ['agent', 'dnsp'] as const) {
      for (const kind of ['site', 'gsm'] as const) {
        const keyCode = kind === 'site' ? site : real.gsm.key;
        await client
          .statusAsSent({ kind, status, keyCode }, { batchSize: 3, returnedInfo: ['BasicInfo'] })
          .firstPage();
      }
    }
    const paths = urls
      .filter((u) => u.includes('/api/status/'))
      .map((u) => new URL(u).pathname.replace(/^.*\/api/, '/api'));
    expect(paths).toEqual([
      `/api/status/site/${site}`,
      `/api/status/gsm/${real.gsm.key}`,
      `/api/status/site/dnsp/${site}`,
      `/api/status/gsm/dnsp/${real.gsm.key}`,
    ]);
    const groups = urls
      .filter((u) => u.includes('/api/status/'))
      .map((u) => new URL(u).searchParams.get('returnedInfo'));
    expect(groups).toEqual(['BasicInfo', 'BasicInfo', null, null]);
  });
});
