import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Maintenance } from '../../functions/infection-alerter/health/maintenance.js';
import type { HealthAlert } from '../../lib/alerts/index.js';
import { StateStore } from '../../lib/aws/index.js';
import { readMutes } from '../../scripts/alerts/mutes-source.js';
import { endWindow, heldLines, muteSite } from '../../scripts/local/maintenance-demo.js';
import type { LocalResources } from '../../scripts/local/provision.js';
import { type LocalAws, startLocalAws } from '../support/local-aws.js';

let aws: LocalAws;
let res: LocalResources;

beforeAll(async () => {
  aws = await startLocalAws();
  res = await aws.provision();
});
afterAll(async () => aws?.moto.stop());

const SITE = { key: 'INIT-ECH3', name: 'Initech Garage 3' };
const ALERT: HealthAlert = {
  schema: 'skywatch.alert/v2',
  id: 'attention-required/M1',
  eventId: 'attention-required/M1#1',
  action: 'trigger',
  kind: 'attention-required',
  severity: 'medium',
  gsm: 'G',
  consoleName: 'Console',
  site: SITE.key,
  siteName: SITE.name,
  hostName: 'KIOSK-1',
  machineId: 'M1',
  title: 'Attention required: KIOSK-1 at Initech Garage 3',
  summary: 's',
  occurredAt: '2026-06-15T12:00:00Z',
  openedAt: '2026-06-15T12:00:00Z',
  facts: {},
};

describe('Module: maintenance-demo (npm start)', () => {
  it('mutes a site through the mute command, into the parameter the alerter reads', async () => {
    // Act
    const muted = await muteSite(aws.clients.ssm, res.mutesParameter, SITE, 'Re-imaging');

    // Assess
    expect(muted.lines[0]).toMatch(
      new RegExp(
        `^muted ${muted.id}: site Initech Garage 3 from .* \\(Re-imaging, by npm start\\)$`,
      ),
    );
    const doc = await readMutes(aws.clients.ssm, res.mutesParameter);
    expect(doc.windows.map((w) => w.id)).toEqual([muted.id]);
  });

  it('lists the triggers the alerter holds, by the window holding them', async () => {
    // Prepare: the alerter's own index of a held trigger
    const state = new StateStore(aws.clients.s3, res.bucket);
    const doc = await readMutes(aws.clients.ssm, res.mutesParameter);
    const maintenance = new Maintenance(state, 'G', doc, Date.now());
    const held = maintenance.hold(ALERT);
    expect(held).toBeDefined();
    await maintenance.entries.trigger({
      subject: 'M1',
      seq: 1,
      createdAt: ALERT.occurredAt,
      alert: ALERT,
      ...(held ? { held } : {}),
    });

    // Act
    const lines = await heldLines(state, 'G');

    // Assess
    expect(lines).toEqual([`held by ${held?.window}: ${ALERT.title}`]);
  });

  it('ends the window through the unmute command, leaving no window', async () => {
    // Prepare
    const [window] = (await readMutes(aws.clients.ssm, res.mutesParameter)).windows;

    // Act
    const lines = await endWindow(aws.clients.ssm, res.mutesParameter, window?.id ?? '');

    // Assess
    expect(lines).toEqual([`unmuted ${window?.id}: site Initech Garage 3 (Re-imaging)`]);
    expect((await readMutes(aws.clients.ssm, res.mutesParameter)).windows).toEqual([]);
  });
});
