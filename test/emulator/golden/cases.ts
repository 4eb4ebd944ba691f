/**
 * Golden cases: responses of the emulator whose bytes (status pages) or figures (blocked-URL
 * counts) must not change when the rendering or counting code is made faster. The fixtures in
 * this folder were recorded from the implementation before those changes (see record.ts); the
 * golden tests replay the same cases against the current code.
 *
 * Plain fetch, no vitest: record.ts runs these cases outside the test runner.
 */
import { createHash } from 'node:crypto';
import type { Emulator, EmulatorOptions } from '../../../emulator/index.js';

const UA = 'SkywatchGolden/1.0';
export const GOLDEN_NOW = '2026-06-15T12:00:00Z';
const DAY_MS = 86_400_000;

async function accessToken(em: Emulator): Promise<string> {
  const info = em.info();
  const user = info.users[0];
  const basic = Buffer.from(`${info.client.clientId}:${info.client.clientSecret}`).toString(
    'base64',
  );
  const res = await fetch(em.tokenUrl, {
    method: 'POST',
    headers: {
      authorization: `Basic ${basic}`,
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': UA,
    },
    body: new URLSearchParams({
      grant_type: 'password',
      username: user?.username ?? '',
      password: user?.password ?? '',
      scope: '*',
    }).toString(),
  });
  const body = (await res.json()) as { access_token?: string };
  if (res.status !== 200 || !body.access_token) throw new Error(`no token: ${res.status}`);
  return body.access_token;
}

async function getText(target: string, tok: string): Promise<string> {
  const res = await fetch(target, {
    headers: { authorization: `Bearer ${tok}`, 'user-agent': UA },
  });
  const text = await res.text();
  if (res.status !== 200)
    throw new Error(`${target} answered ${res.status}: ${text.slice(0, 300)}`);
  return text;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The dataset of the status-page cases: two GSMs of a million endpoints each. */
export const STATUS_OPTIONS: EmulatorOptions = {
  seed: 1,
  gsmCount: 2,
  sitesPerGsm: 4,
  endpointsPerGsm: 1_000_000,
  now: GOLDEN_NOW,
};

/**
 * SHA-256 and length of every status-page case, by name. Covers full 1,000-entry pages of
 * every site and both GSMs, continuation pages, group selections, DNSP pages, and entries
 * changed through the admin API (infected with a threat that needs JSON escaping, cleaned,
 * hidden, deactivated, reactivated, enrolled) read by modifiedSince and by machineId.
 */
export async function statusPageDigests(
  em: Emulator,
): Promise<Record<string, { sha256: string; bytes: number }>> {
  const out: Record<string, { sha256: string; bytes: number }> = {};
  let tok = await accessToken(em);
  // ContinuationURI names the emulator's free port: the digest is of the rest.
  const origin = new URL(em.baseUrl).origin;
  const record = (name: string, text: string) => {
    const portless = text.replaceAll(origin, 'http://emulator');
    out[name] = { sha256: sha256(portless), bytes: Buffer.byteLength(portless) };
  };
  const get = async (name: string, path: string, query: Record<string, string> = {}) => {
    const target = new URL(`${em.baseUrl}${path}`);
    for (const [k, v] of Object.entries(query)) target.searchParams.set(k, v);
    const text = await getText(target.toString(), tok);
    record(name, text);
    return JSON.parse(text) as { ContinuationURI: string | null; QueryResults: unknown[] };
  };
  const info = em.info();
  const [gsm0, gsm1] = info.gsms;
  if (!gsm0 || !gsm1) throw new Error('two GSMs expected');
  const full = { batchSize: '1000' };

  const first = await get('gsm0.page1', `/api/status/gsm/${gsm0.key}`, full);
  if (!first.ContinuationURI) throw new Error('gsm0 has a second page');
  record('gsm0.page2', await getText(first.ContinuationURI, tok));
  await get('gsm1.page1', `/api/status/gsm/${gsm1.key}`, full);
  for (const [i, site] of gsm0.sites.entries()) {
    await get(`gsm0.site${i}.page1`, `/api/status/site/${site.key}`, full);
  }
  const selections = [
    'BasicInfo',
    'OSAndVersions,TimesAndStats',
    'Scheduling, EnabledFeatures ,SystemAnalyzer,ExtendedInfo',
  ];
  for (const [i, returnedInfo] of selections.entries()) {
    await get(`gsm0.groups${i}`, `/api/status/gsm/${gsm0.key}`, { batchSize: '500', returnedInfo });
  }
  await get('gsm0.dnsp.page1', `/api/status/gsm/dnsp/${gsm0.key}`, full);
  await get('gsm0.site1.dnsp.page1', `/api/status/site/dnsp/${gsm0.sites[1]?.key}`, full);

  // Changes through the admin API, an hour after the frozen start.
  em.advanceClock(3_600);
  const since = em.now().toISOString();
  const site2 = gsm0.sites[2];
  if (!site2) throw new Error('site 2 expected');
  const ids = em.machineIds(site2.key, 12);
  const id = (n: number) => ids[n] ?? '';
  em.endpointAction(id(0), 'infect', 'Trojan|Win32|"Quoted" \\ Thréat\u2028');
  em.endpointAction(id(1), 'infect');
  em.advanceClock(61);
  em.endpointAction(id(1), 'clean');
  em.endpointAction(id(2), 'hide');
  em.endpointAction(id(3), 'deactivate');
  em.advanceClock(7);
  em.endpointAction(id(4), 'deactivate');
  em.endpointAction(id(4), 'reactivate');
  em.endpointAction(id(5), 'touch');
  em.endpointAction(id(6), 'hide');
  em.endpointAction(id(6), 'unhide');
  const enrolled = em.enrol(gsm0.sites[0]?.key ?? '', 3);
  em.advanceClock(1);
  // Access tokens live 300 s: the clock has moved past the first one.
  tok = await accessToken(em);

  await get('changed.gsm0.page1', `/api/status/gsm/${gsm0.key}`, full);
  await get('changed.site2.page1', `/api/status/site/${site2.key}`, full);
  await get('changed.modifiedSince', `/api/status/gsm/${gsm0.key}`, { modifiedSince: since });
  await get('changed.dnsp.modifiedSince', `/api/status/gsm/dnsp/${gsm0.key}`, {
    modifiedSince: since,
  });
  await get('changed.site.dnsp', `/api/status/site/dnsp/${site2.key}`, { batchSize: '20' });
  for (const [n, machineId] of [...ids.slice(0, 7), ...enrolled].entries()) {
    await get(`changed.machineId${n}`, `/api/status/gsm/${gsm0.key}`, { machineId });
  }
  return out;
}

/** The datasets of the blocked-URL cases, each recorded in a process of its own. */
export const COUNT_CONFIGS: Record<string, EmulatorOptions> = {
  small: { seed: 1, endpointsPerGsm: 120, now: GOLDEN_NOW },
  medium: { seed: 1, endpointsPerGsm: 12_000, now: GOLDEN_NOW },
  million: { seed: 7, gsmCount: 1, sitesPerGsm: 3, endpointsPerGsm: 1_000_000, now: GOLDEN_NOW },
};

const FLAGS = [
  {},
  { includeHidden: 'true' },
  { includeDeactivated: 'true' },
  { includeHidden: 'true', includeDeactivated: 'true' },
];

/** Every site with the default window under the four flag combinations. */
export async function defaultWindowCounts(
  em: Emulator,
  tok?: string,
): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = {};
  const t = tok ?? (await accessToken(em));
  for (const gsm of em.info().gsms) {
    for (const [s, site] of gsm.sites.entries()) {
      for (const [f, flags] of FLAGS.entries()) {
        const target = new URL(
          `${em.baseUrl}/api/console/gsm/${gsm.key}/sites/${site.id}/blockedurls/counts`,
        );
        for (const [k, v] of Object.entries(flags)) target.searchParams.set(k, v);
        const body = JSON.parse(await getText(target.toString(), t)) as {
          DatedCounts: { Count: number }[];
        };
        out[`${gsm.key.slice(0, 4)}.site${s}.flags${f}`] = body.DatedCounts.map((d) => d.Count);
      }
    }
  }
  return out;
}

/**
 * Blocked-URL counts of every site (default window, four flag combinations), a 30-day window
 * with partial ends, then the same after hiding, deactivating, enrolling and adding a spike.
 */
export async function blockedUrlCases(em: Emulator): Promise<Record<string, number[]>> {
  let tok = await accessToken(em);
  const gsm = em.info().gsms[0];
  const [site0, site1, site2] = gsm?.sites ?? [];
  if (!gsm || !site0 || !site1 || !site2) throw new Error('three sites expected');
  const longWindow = async () => {
    const now = em.now().getTime();
    const target = new URL(
      `${em.baseUrl}/api/console/gsm/${gsm.key}/sites/${site0.id}/blockedurls/counts`,
    );
    const end = now - 3 * DAY_MS - 4 * 3_600_000 - 13 * 60_000;
    target.searchParams.set('endDate', new Date(end).toISOString());
    target.searchParams.set('startDate', new Date(end - 30 * DAY_MS + 1).toISOString());
    target.searchParams.set('includeHidden', 'true');
    const body = JSON.parse(await getText(target.toString(), tok)) as {
      DatedCounts: { Count: number }[];
    };
    return body.DatedCounts.map((d) => d.Count);
  };
  const out: Record<string, number[]> = {};
  for (const [k, v] of Object.entries(await defaultWindowCounts(em, tok))) out[`before.${k}`] = v;
  out['before.long'] = await longWindow();

  const ids = em.machineIds(site0.key, 10);
  for (const id of ids.slice(0, 3)) em.endpointAction(id, 'hide');
  for (const id of ids.slice(3, 6)) em.endpointAction(id, 'deactivate');
  em.endpointAction(ids[6] ?? '', 'hide');
  em.endpointAction(ids[6] ?? '', 'deactivate');
  em.endpointAction(ids[3] ?? '', 'reactivate');
  em.endpointAction(ids[7] ?? '', 'infect');
  em.enrol(site1.key, 4);
  const twoDaysAgo = new Date(em.now().getTime() - 2 * DAY_MS).toISOString().slice(0, 10);
  em.addBlockedUrls(site2.id, twoDaysAgo, 777);
  em.advanceClock(5 * 3_600);
  tok = await accessToken(em);

  for (const [k, v] of Object.entries(await defaultWindowCounts(em, tok))) out[`after.${k}`] = v;
  out['after.long'] = await longWindow();
  return out;
}
