import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchemaError, type SurpriseEvent, utcInstant, xmlCodec } from '../../lib/index.js';
import { startWorld, type World } from './support/world.js';

/**
 * Entries of a whole walk, with the surprises the client reported on the way, each with the
 * index of its entry in the walk (a page's surprises arrive while it is fetched, after the
 * entries before it were taken).
 */
async function walkAll(w: World, extra: Parameters<World['client']>[0] = {}) {
  const entries: Record<string, unknown>[] = [];
  const surprises: (SurpriseEvent & { entry: number })[] = [];
  const client = w.client({
    onSurprise: (s) => {
      const local = Number(/^QueryResults\[(\d+)\]/.exec(s.at)?.[1] ?? Number.NaN);
      surprises.push({ ...s, entry: entries.length + local });
    },
    ...extra,
  });
  const texts: string[] = [];
  for await (const page of client.gsmAgentStatus(w.gsm.key, { batchSize: 25 }).pages()) {
    entries.push(...(page.entries as Record<string, unknown>[]));
    texts.push(...page.entryTexts());
  }
  return { entries, texts, surprises };
}

/** Every instant of a value normalised, and fields only one side has left out. */
function normalised(value: unknown): unknown {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) return utcInstant(value);
  if (Array.isArray(value)) return value.map(normalised);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalised(v)]));
  }
  return value;
}

/** `real`'s fields that `contract` has too and that were not nulled or blanked. */
function sameData(real: Record<string, unknown>, contract: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(contract)) {
    const r = real[k];
    if (r === undefined || r === null || r === '') continue;
    out[k] =
      v && typeof v === 'object' && !Array.isArray(v)
        ? sameData(r as Record<string, unknown>, v as Record<string, unknown>)
        : r;
  }
  return out;
}

let real: World;
let contract: World;
beforeAll(async () => {
  // Every entry carries surprises: a null, most a blank, all an undocumented field.
  real = await startWorld({ profile: 'real', surpriseShare: 1 });
  contract = await startWorld();
});
afterAll(async () => {
  await real.emu.close();
  await contract.emu.close();
});

describe('Tolerant reader over HTTP (real profile, a surprise in every entry)', () => {
  it('delivers every entry of a walk and counts every surprise by path and rule', async () => {
    // Act
    const { entries, texts, surprises } = await walkAll(real);
    // Assess: nothing lost, one text per entry, every entry surprising.
    expect(entries).toHaveLength(real.gsm.endpointCount);
    expect(texts).toHaveLength(real.gsm.endpointCount);
    const surprising = new Set(surprises.map((s) => s.entry));
    expect(surprising.size).toBe(entries.length);
    expect([...surprising].every((i) => i >= 0 && i < entries.length)).toBe(true);
    const count = (rule: string) => surprises.filter((s) => s.rule === rule).length;
    expect(count('unknown-field')).toBe(entries.length);
    expect(count('null')).toBe(entries.length);
    expect(count('blank')).toBeGreaterThan(0);
    for (const s of surprises) {
      expect(s.model).toBe('AgentStatus page');
      expect(s.path).not.toMatch(/\[\d+\]/);
      // Where and which rule, never the value.
      expect(Object.keys(s).sort()).toEqual(['at', 'entry', 'model', 'path', 'rule']);
    }
    // The undocumented field is kept in the value; a nulled one is absent from the value and
    // kept, as the service wrote it, in the entry's text (what the archive stores).
    expect(entries.every((e) => e.PolicyName === 'Recommended Defaults')).toBe(true);
    const nulled = surprises.filter((s) => s.rule === 'null' && s.path === 'QueryResults.LastSeen');
    expect(nulled.length).toBeGreaterThan(0);
    for (const { entry } of nulled) {
      expect(entries[entry]?.LastSeen).toBeUndefined();
      expect(entries[entry]?.MachineID).toEqual(expect.any(String));
      expect(JSON.parse(texts[entry] ?? '{}')).toMatchObject({ LastSeen: null });
    }
  });

  it('delivers the same data as the contract profile wherever the data is the same', async () => {
    const [r, c] = await Promise.all([walkAll(real), walkAll(contract)]);
    expect(c.surprises).toEqual([]);
    expect(r.entries.map((e) => e.MachineID)).toEqual(c.entries.map((e) => e.MachineID));
    r.entries.forEach((entry, i) => {
      const theirs = normalised(c.entries[i]) as Record<string, unknown>;
      expect(normalised(sameData(entry, theirs))).toEqual(
        normalised(sameData(theirs, sameData(entry, theirs))),
      );
    });
    // At least one instant per entry came in another rendering than the contract's.
    const zoneless = r.texts.filter((t) => /"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}"/.test(t));
    expect(zoneless.length).toBeGreaterThan(r.texts.length / 2);
    expect(r.texts.some((t) => /\.\d{7}Z"/.test(t))).toBe(true);
  });

  it('fails the first page in strict mode, naming the path', async () => {
    const error = await real
      .client({ strict: true })
      .gsmAgentStatus(real.gsm.key, { batchSize: 5 })
      .firstPage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as SchemaError).path).toMatch(/^QueryResults\[\d+\]\./);
  });

  it('follows opaque gzip-looking continuation tokens, and their absolute ContinuationURI', async () => {
    const client = real.client();
    const first = await client.gsmAgentStatus(real.gsm.key, { batchSize: 10 }).firstPage();
    expect(first.continuationToken).toMatch(/^H4sI[A-Za-z0-9_-]+$/);
    const uri = new URL(String(first.raw.ContinuationURI));
    expect(uri.origin).toBe(new URL(real.emu.baseUrl).origin);
    expect(uri.searchParams.get('continuation')).toBe(first.continuationToken);
    const token = (await client.tokens.getToken()).value;
    const followed = await fetch(uri, {
      headers: { authorization: `Bearer ${token}`, 'user-agent': 'test/1' },
    });
    expect(followed.status).toBe(200);
    const second = await client
      .gsmAgentStatus(real.gsm.key, { batchSize: 10, continuation: first.continuationToken })
      .firstPage();
    const viaUri = (await followed.json()) as { QueryResults: { MachineID: string }[] };
    expect(viaUri.QueryResults.map((e) => e.MachineID)).toEqual(
      second.entries.map((e) => e.MachineID),
    );
  });

  it('reads DataContract XML in alphabetical order with its namespaces as its JSON twin', async () => {
    const client = real.client({ xml: xmlCodec });
    const token = (await client.tokens.getToken()).value;
    const url = `${real.emu.baseUrl}/api/status/reporting/gsm/${real.gsm.key}/sites/${real.dnspSite.key}/dnsp`;
    const body = await (
      await fetch(url, {
        headers: {
          accept: 'application/xml',
          authorization: `Bearer ${token}`,
          'user-agent': 't/1',
        },
      })
    ).text();
    expect(body).toContain(
      'xmlns="http://schemas.datacontract.org/2004/07/Webroot.UnityAPI.ServiceExtension.SkyStatus.Models"',
    );
    expect(body).toContain('xmlns:i="http://www.w3.org/2001/XMLSchema-instance"');
    const info = /<ReportInfo>(.*?)<\/ReportInfo>/.exec(body)?.[1] ?? '';
    const names = [...info.matchAll(/<(\w+)[ >/]/g)].map((m) => m[1]);
    expect(names).toEqual([...names].sort());
    const [xml, json] = await Promise.all([
      client.siteDnspUsageReport(real.gsm.key, real.dnspSite.key, { format: 'xml' }),
      client.siteDnspUsageReport(real.gsm.key, real.dnspSite.key),
    ]);
    expect(normalised(xml)).toEqual(normalised(json));
  });

  it('issues access tokens of 299 seconds', async () => {
    const res = await fetch(real.emu.tokenUrl, {
      method: 'POST',
      headers: {
        'user-agent': 'test/1',
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${real.info.client.clientId}:${real.info.client.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'password',
        username: real.ops.username,
        password: real.ops.password,
        scope: 'SkyStatus.GSM',
      }),
    });
    expect(((await res.json()) as { expires_in: number }).expires_in).toBe(299);
  });
});
