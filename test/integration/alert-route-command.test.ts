import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CreateSecretCommand } from '@aws-sdk/client-secrets-manager';
import { PutParameterCommand } from '@aws-sdk/client-ssm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testAlert } from '../../functions/alert-notifier/test-alert.js';
import { ROUTING_SCHEMA } from '../../lib/alerts/index.js';
import { main } from '../../scripts/alerts/main.js';
import { type LocalAws, startLocalAws } from '../support/local-aws.js';
import { type Receiver, startReceiver } from '../support/receivers.js';
import { ROOT } from '../support/root.js';

/**
 * `npm run alerts -- route` (validate, explain) on files, and `npm run alerts -- test`
 * following the routing parameter (moto's SSM) to named destinations (real local receivers).
 */
let aws: LocalAws;
let slack: Receiver;
let acme: Receiver;
let psa: Receiver;
const psaSecret = `whsec_${randomBytes(24).toString('base64')}`;
let secretArn: string;
const dir = mkdtempSync(path.join(tmpdir(), 'sw-route-'));

const MSP = {
  schema: ROUTING_SCHEMA,
  routes: [
    {
      name: 'acme',
      match: { site: ['2PKA-1EGZ-UKZK-OT8S-NH03', 'Acme Dental'] },
      destinations: ['acme-slack', 'psa'],
      fields: { psaCompanyId: 42 },
    },
    {
      name: 'pager',
      match: { severity: ['critical'] },
      destinations: ['pagerduty'],
    },
    { name: 'lab', match: { site: ['Test Lab'] }, destinations: [] },
  ],
  default: { destinations: ['slack'] },
};

function file(name: string, value: unknown): string {
  const at = path.join(dir, name);
  writeFileSync(at, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return at;
}

async function alerts(...argv: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const status = await main(
    argv,
    { stdout: (t) => stdout.push(t), stderr: (t) => stderr.push(t) },
    { env: {}, secrets: aws.clients.secrets, ssm: aws.clients.ssm },
  );
  return { status, stdout: stdout.join(''), stderr: stderr.join('') };
}

async function parameter(document: unknown): Promise<string> {
  const name = `/sw-route-test/${randomBytes(4).toString('hex')}`;
  await aws.clients.ssm.send(
    new PutParameterCommand({
      Name: name,
      Type: 'String',
      Value: typeof document === 'string' ? document : JSON.stringify(document),
    }),
  );
  return name;
}

beforeAll(async () => {
  aws = await startLocalAws();
  [slack, acme, psa] = await Promise.all([
    startReceiver(200),
    startReceiver(200),
    startReceiver(204),
  ]);
  const out = await aws.clients.secrets.send(
    new CreateSecretCommand({
      Name: `sw-route-test-${randomBytes(4).toString('hex')}`,
      SecretString: JSON.stringify({
        slack: { url: slack.url },
        destinations: {
          'acme-slack': { type: 'slack', url: acme.url },
          psa: { type: 'webhook', url: psa.url, secret: psaSecret },
        },
      }),
    }),
  );
  secretArn = out.ARN ?? '';
});
beforeEach(() => {
  for (const r of [slack, acme, psa]) r.requests.length = 0;
});
afterAll(async () => {
  await Promise.all([slack, acme, psa].map((r) => r?.close()));
  await aws?.moto.stop();
});

describe('Command: npm run alerts -- route', () => {
  it('says a valid document is valid, and what its default does', async () => {
    const { status, stdout } = await alerts('route', file('msp.json', MSP));
    expect(status).toBe(0);
    expect(stdout).toMatch(/msp\.json is valid: 3 routes, then the default \(to slack\)\n$/);
  });

  it('lists every problem of an invalid document with its path, and exits 1', async () => {
    const bad = {
      ...MSP,
      routes: [
        { ...MSP.routes[0], match: { kind: ['infectd'] } },
        { ...MSP.routes[1], name: 'acme', destinations: ['PagerDuty'] },
      ],
      default: { destinations: ['slack'], extra: true },
    };
    const { status, stdout, stderr } = await alerts('route', file('bad.json', bad));
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.split('\n')).toEqual([
      expect.stringMatching(/bad\.json has 4 problems:$/),
      expect.stringMatching(/^ {2}routes\[0\]\.match\.kind\[0\]: Invalid option/),
      expect.stringMatching(/^ {2}routes\[1\]\.destinations\[0\]: must be a destination name/),
      '  default: Unrecognized key: "extra"',
      '  routes[1].name: repeats the name of routes[0]',
      '',
    ]);
  });

  it('explains where kind/site alerts go: first match, by keycode or name, or nowhere', async () => {
    const doc = file('msp.json', MSP);
    const { status, stdout } = await alerts(
      'route',
      doc,
      '--explain',
      'offline/acme dental/A1B2',
      '--explain',
      'infected/ELSEWHERE',
      '--explain',
      'offline/Test Lab',
      '--explain',
      'offline/ELSEWHERE',
    );
    expect(status).toBe(0);
    expect(stdout.split('\n\n').slice(1)).toEqual([
      [
        'alert   offline at site acme dental, severity medium',
        'route   acme',
        'to      acme-slack, psa',
        'fields  {"psaCompanyId":42}',
      ].join('\n'),
      // infected is critical by default: the pager route.
      [
        'alert   infected at site ELSEWHERE, severity critical',
        'route   pager',
        'to      pagerduty',
      ].join('\n'),
      ['alert   offline at site Test Lab, severity medium', 'route   lab', 'to      nowhere'].join(
        '\n',
      ),
      [
        'alert   offline at site ELSEWHERE, severity medium',
        'route   default',
        'to      slack\n',
      ].join('\n'),
    ]);
  });

  it('explains an alert given as its JSON file, and takes --severity and --gsm', async () => {
    const [alert] = testAlert(new Date(), { origin: 'test' });
    const json = file('alert.json', { ...alert, site: '2PKA-1EGZ-UKZK-OT8S-NH03', siteName: null });
    const doc = file('msp.json', MSP);
    const fromFile = await alerts('route', doc, '--explain', json);
    expect(fromFile.stdout).toContain('route   acme\n');
    const critical = await alerts(
      'route',
      doc,
      '--explain',
      'offline/X',
      '--severity',
      'critical',
      '--gsm',
      'G',
    );
    expect(critical.stdout).toContain('severity critical, GSM G\nroute   pager\n');
  });

  it('refuses what it does not understand (exit 2) and a file it cannot read (exit 1)', async () => {
    const doc = file('msp.json', MSP);
    expect((await alerts('route')).status).toBe(2);
    const kind = await alerts('route', doc, '--explain', 'infectd/SITE');
    expect(kind.status).toBe(2);
    expect(kind.stderr).toMatch(/not kind\/site\[\/machineId\] with a health kind/);
    expect(
      (await alerts('route', doc, '--explain', 'offline/S', '--severity', 'urgent')).status,
    ).toBe(2);
    const missing = await alerts('route', path.join(dir, 'none.json'));
    expect(missing.status).toBe(1);
    const notJson = await alerts('route', file('text.json', '{"schema":'));
    expect(notJson.stderr).toMatch(/has 1 problem:\n {2}\(document\): is not JSON/);
  });

  it('runs as the npm script, its exit status kept', async () => {
    const bad = file('npm-bad.json', { schema: ROUTING_SCHEMA });
    const run = await promisify(execFile)(
      'npm',
      ['run', '--silent', 'alerts', '--', 'route', bad],
      {
        cwd: ROOT,
      },
    ).then(
      (ok) => ({ code: 0, ...ok }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/has 1 problem:\n {2}default: /);
  });
});

describe('Command: npm run alerts -- test, following the routing parameter', () => {
  const routedTest = {
    ...MSP,
    routes: [
      {
        name: 'tests',
        match: { site: ['TEST'] },
        destinations: ['acme-slack', 'psa'],
        fields: { psaCompanyId: 7 },
      },
      ...MSP.routes,
    ],
  };

  it('sends the test alert where the document routes it, the webhook carrying the route', async () => {
    const name = await parameter(routedTest);
    const { status, stdout } = await alerts(
      'test',
      '--secret-arn',
      secretArn,
      '--routing-parameter',
      name,
    );
    expect(status).toBe(0);
    expect(stdout.trimEnd().split('\n')).toEqual([
      'acme-slack trigger  200 delivered',
      'acme-slack resolve  200 delivered',
      'psa        trigger  204 delivered',
      'psa        resolve  204 delivered',
    ]);
    expect(slack.requests).toEqual([]);
    const hook = psa.accepted()[0];
    const body = new Webhook(psaSecret).verify(hook?.body ?? '', hook?.headers as never);
    expect(body).toMatchObject({
      test: true,
      route: { name: 'tests', fields: { psaCompanyId: 7 } },
    });
  });

  it('sends only to --destination, whatever the routing', async () => {
    const name = await parameter(routedTest);
    const { status } = await alerts(
      'test',
      '--secret-arn',
      secretArn,
      '--routing-parameter',
      name,
      '--destination',
      'slack',
    );
    expect(status).toBe(0);
    expect(slack.accepted()).toHaveLength(2);
    expect(acme.requests).toEqual([]);
  });

  it('says so when the routing sends it nowhere or to a destination the secret lacks', async () => {
    const nowhere = await parameter({
      ...MSP,
      routes: [{ ...routedTest.routes[0], destinations: [] }],
    });
    const none = await alerts('test', '--secret-arn', secretArn, '--routing-parameter', nowhere);
    expect(none.status).toBe(1);
    expect(none.stderr).toMatch(/sends the test alert nowhere \(route "tests"\)/);
    const lacking = await parameter({ ...MSP, default: { destinations: ['slack', 'teams'] } });
    const partly = await alerts('test', '--secret-arn', secretArn, '--routing-parameter', lacking);
    expect(partly.status).toBe(1);
    expect(partly.stdout).toMatch(
      /^teams {5}trigger {2}--- not-configured: routed here, but the notifier secret/m,
    );
    expect(slack.accepted()).toHaveLength(2);
  });

  it('lists the problems of an invalid parameter instead of sending anywhere', async () => {
    const bad = await parameter({ ...MSP, default: { destinations: 'slack' } });
    const { status, stderr } = await alerts(
      'test',
      '--secret-arn',
      secretArn,
      '--routing-parameter',
      bad,
    );
    expect(status).toBe(1);
    expect(stderr).toMatch(
      /^alerts test: The alert routing document is invalid \(1 problem\): default\.destinations: /,
    );
    expect([...slack.requests, ...acme.requests, ...psa.requests]).toEqual([]);
  });
});
