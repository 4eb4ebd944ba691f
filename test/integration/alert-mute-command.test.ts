import { randomBytes } from 'node:crypto';
import { GetParameterCommand, PutParameterCommand } from '@aws-sdk/client-ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MUTES_SCHEMA, parseMutesText } from '../../lib/alerts/index.js';
import { main } from '../../scripts/alerts/main.js';
import { type LocalAws, startLocalAws } from '../support/local-aws.js';

/** `npm run alerts -- mute | unmute | mutes` against moto's SSM, at a test's clock. */
let aws: LocalAws;
beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(async () => aws?.moto.stop());

const NOON = Date.parse('2026-06-15T12:00:00Z');
const fresh = () => `/sw-test-${randomBytes(4).toString('hex')}/alert-mutes`;

async function alerts(parameter: string, now: number, ...argv: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const status = await main(
    argv,
    { stdout: (t) => stdout.push(t), stderr: (t) => stderr.push(t) },
    { ssm: aws.clients.ssm, env: { ALERT_MUTES_PARAMETER: parameter }, now: () => now },
  );
  return { status, out: stdout.join(''), err: stderr.join('') };
}

async function stored(name: string) {
  const out = await aws.clients.ssm.send(new GetParameterCommand({ Name: name }));
  return parseMutesText(out.Parameter?.Value ?? '');
}

describe('Command: alerts mute / unmute / mutes', () => {
  it('adds a window (from now, to +2h), lists it active, and removes it', async () => {
    const p = fresh();
    const muted = await alerts(
      p,
      NOON,
      'mute',
      '--site',
      'Acme Dental',
      '--kind',
      'offline',
      '--to',
      '+2h',
      '--reason',
      'Re-imaging',
      '--by',
      'ana',
    );
    expect(muted.status).toBe(0);
    const [w] = (await stored(p)).windows;
    expect(w).toMatchObject({
      match: { site: 'Acme Dental', kind: 'offline' },
      from: '2026-06-15T12:00:00.000Z',
      to: '2026-06-15T14:00:00.000Z',
      reason: 'Re-imaging',
      by: 'ana',
    });
    const id = w?.id ?? '';
    expect(muted.out).toContain(`muted ${id}: site Acme Dental, kind offline`);
    expect((await alerts(p, NOON + 60_000, 'mutes')).out).toMatch(new RegExp(`^${id}  active `));
    expect((await alerts(p, NOON + 3 * 3_600_000, 'mutes')).out).toMatch(/ ended /);
    expect((await alerts(p, NOON, 'unmute', id)).status).toBe(0);
    expect((await stored(p)).windows).toEqual([]);
    expect(await alerts(p, NOON, 'unmute', id)).toMatchObject({ status: 1 });
  });

  it('removes windows that have ended on every write, and keeps the rest', async () => {
    const p = fresh();
    await alerts(p, NOON, 'mute', '--machine', 'M1', '--to', '+1h', '--reason', 'a');
    await alerts(
      p,
      NOON,
      'mute',
      '--gsm',
      'G1',
      '--from',
      '2026-06-15T15:00:00Z',
      '--to',
      '+1d',
      '--reason',
      'b',
    );
    const later = await alerts(
      p,
      NOON + 2 * 3_600_000,
      'mute',
      '--site',
      'KC',
      '--to',
      '+1h',
      '--reason',
      'c',
    );
    expect(later.out).toContain('removed 1 ended window(s)');
    expect((await stored(p)).windows.map((w) => w.reason)).toEqual(['b', 'c']);
    expect((await alerts(p, NOON + 2 * 3_600_000, 'mutes')).out).toMatch(/ scheduled /);
  });

  it('lists every problem of a bad window with its path, and writes nothing', async () => {
    const p = fresh();
    const bad = await alerts(p, NOON, 'mute', '--kind', 'asleep', '--from', 'noon', '--to', '+2x');
    expect(bad.status).toBe(2);
    for (const path of ['match.kind:', 'from:', 'to:', 'reason:'])
      expect(bad.err).toContain(`  ${path}`);
    const none = await alerts(p, NOON, 'mute', '--to', '+1h', '--reason', 'r');
    expect(none.err).toContain('  match: must name at least one of');
    const past = await alerts(
      p,
      NOON,
      'mute',
      '--site',
      'S',
      '--from',
      '2026-06-14T00:00:00Z',
      '--to',
      '+1h',
      '--reason',
      'r',
    );
    expect(past.err).toContain('  to: has already passed');
    const backwards = await alerts(
      p,
      NOON,
      'mute',
      '--site',
      'S',
      '--to',
      '2026-06-15T11:00:00Z',
      '--reason',
      'r',
    );
    expect(backwards.err).toContain('  to: must be after from');
    expect((await alerts(p, NOON, 'mutes')).out).toBe('no maintenance windows\n');
  });

  it('refuses to write over a document it cannot read, listing its problems', async () => {
    const p = fresh();
    await aws.clients.ssm.send(
      new PutParameterCommand({
        Name: p,
        Type: 'String',
        Value: JSON.stringify({ schema: MUTES_SCHEMA, windows: [{ id: 'x' }] }),
      }),
    );
    const r = await alerts(p, NOON, 'mute', '--site', 'S', '--to', '+1h', '--reason', 'r');
    expect(r.status).toBe(1);
    expect(r.err).toContain('windows[0].match');
  });

  it('needs a parameter', async () => {
    const r = await main(['mutes'], { stdout: () => {}, stderr: () => {} }, { env: {} });
    expect(r).toBe(2);
  });
});
