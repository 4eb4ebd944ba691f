import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { parseFaults } from '../../emulator/cli-faults.js';
import { cliOptions } from '../../emulator/cli-options.js';
import { resolveOptions } from '../../emulator/options.js';
import { UA } from './helpers.js';

const ALLOWED = '429, 500, 502, 503, 504';

describe('CLI: --faults syntax', () => {
  it('reads the positional status and probability, and named fields', () => {
    expect(
      parseFaults(
        'status.gsm:status:503:0.1:retryAfterSeconds=5, token:latency:latencyMs=800:count=3,' +
          '*:reset:afterRequests=10:count=1,report.gsm:status:probability=0.5',
      ),
    ).toEqual([
      {
        operation: 'status.gsm',
        kind: 'status',
        status: 503,
        probability: 0.1,
        retryAfterSeconds: 5,
      },
      { operation: 'token', kind: 'latency', latencyMs: 800, count: 3 },
      { operation: '*', kind: 'reset', afterRequests: 10, count: 1 },
      { operation: 'report.gsm', kind: 'status', probability: 0.5 },
    ]);
    expect(parseFaults('')).toEqual([]);
    expect(parseFaults('*:latency:0.25')).toEqual([
      { operation: '*', kind: 'latency', probability: 0.25 },
    ]);
  });

  it.each([
    ['*:status:abc', `status must be one of ${ALLOWED} (got "abc")`],
    ['*:status:404', `status must be one of ${ALLOWED} (got 404)`],
    ['*:status:status=408', `status must be one of ${ALLOWED} (got 408)`],
    ['*:explode', 'kind must be one of status, latency, reset, truncate, malformed, revoke'],
    ['nowhere:status', 'operation must be * or one of token, status.site'],
    ['*:latency:0.5:2', 'unexpected "2"; name it as FIELD=VALUE'],
    ['*:status:count=1:503', 'unexpected "503"'],
    ['*:status:503:status=500', 'status is given more than once'],
    ['*:status:wait=5', 'unknown field "wait"; use status, probability, count, afterRequests'],
    ['*:status:probability=2', 'probability must be a number from 0 to 1 (got 2)'],
    ['*:status:count=1.5', 'count must be an integer (got 1.5)'],
    ['*:status:retryAfterSeconds=soon', 'retryAfterSeconds must be a number (got "soon")'],
    ['*:latency:latencyMs=-1', 'latencyMs must be at least 0 (got -1)'],
    ['*:reset:latencyMs=10', 'latencyMs applies to kind latency only'],
    ['*:latency:status=503', 'status applies to kind status only'],
  ])('refuses %s naming the flag, the rule and the field', (text, why) => {
    expect(() => parseFaults(`status.site:reset,${text}`)).toThrow(
      `--faults rule ${JSON.stringify(text)}: ${why}`,
    );
  });
});

/** Runs `npm run emulator`'s entry point with the given flags (port 0: a free one). */
function runCli(args: string[]): ChildProcess & { output: () => string; errors: () => string } {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'emulator/cli.ts', '--port', '0', ...args],
    { env: { ...process.env, EMULATOR_FAULTS: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    err += c.toString();
  });
  return Object.assign(child, { output: () => out, errors: () => err });
}

let running: ChildProcess | undefined;
afterEach(async () => {
  if (running && running.exitCode === null) {
    const exited = once(running, 'exit');
    running.kill('SIGTERM');
    await exited;
  }
  running = undefined;
});

describe('CLI: refusing bad flags before serving', () => {
  // Each flag's message, checked as the command reads its flags; the process's exit, once.
  it.each([
    [
      ['--faults', '*:status:abc'],
      `--faults rule "*:status:abc": status must be one of ${ALLOWED}`,
    ],
    [
      ['--faults', '*:status:404'],
      `--faults rule "*:status:404": status must be one of ${ALLOWED}`,
    ],
    [['--seed', 'x'], '--seed must be an integer (got "x")'],
    [['--endpoints', '0'], 'emulator option endpointsPerGsm must be an integer from 1'],
    [['--profile', 'prod'], '--profile must be contract or real (got "prod")'],
  ])('refuses %j with a message naming it', (args, message) => {
    expect(() => resolveOptions(cliOptions(['--port', '0', ...args], {}))).toThrow(message);
  });

  it('exits with status 1 and the message, never serving', async () => {
    const cli = runCli(['--endpoints', '0']);
    running = cli;
    const [code] = await once(cli, 'exit');
    expect(code).toBe(1);
    expect(cli.errors()).toContain(
      'emulator: emulator option endpointsPerGsm must be an integer from 1',
    );
    expect(cli.output()).not.toContain('ready');
  });
});

describe('CLI: named fault fields over HTTP', () => {
  it('applies retryAfterSeconds, count and afterRequests given on the command line', async () => {
    const cli = runCli([
      '--endpoints',
      '20',
      '--now',
      '2026-06-15T12:00:00Z',
      '--faults',
      'status.gsm:status:503:retryAfterSeconds=7:count=1,status.gsm:status:502:afterRequests=2:count=1',
    ]);
    running = cli;
    while (!/admin URL/.test(cli.output())) {
      if (cli.exitCode !== null) throw new Error(`the CLI exited: ${cli.errors()}`);
      await once(cli.stdout as NodeJS.ReadableStream, 'data');
    }
    const baseUrl = /base URL\s+(\S+)/.exec(cli.output())?.[1] ?? '';
    const tokenUrl = /token URL\s+(\S+)/.exec(cli.output())?.[1] ?? '';
    const gsmKey = /GSMs\s+(\S+)/.exec(cli.output())?.[1] ?? '';
    const tokenRes = await fetch(tokenUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'user-agent': UA,
        authorization: `Basic ${Buffer.from('skywatch-demo:demo-client-secret').toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'password',
        username: 'ops@example.com',
        password: 'demo-password',
        scope: 'SkyStatus.GSM',
      }).toString(),
    });
    expect(tokenRes.status).toBe(200);
    const { access_token: tok } = (await tokenRes.json()) as { access_token: string };
    const seen: { status: number; retryAfter: string | null }[] = [];
    for (let i = 0; i < 4; i += 1) {
      const res = await fetch(`${baseUrl}/api/status/gsm/${gsmKey}?batchSize=1`, {
        headers: { authorization: `Bearer ${tok}`, 'user-agent': UA },
      });
      await res.arrayBuffer();
      seen.push({ status: res.status, retryAfter: res.headers.get('retry-after') });
    }
    expect(seen).toEqual([
      { status: 503, retryAfter: '7' },
      { status: 200, retryAfter: null },
      { status: 502, retryAfter: null },
      { status: 200, retryAfter: null },
    ]);
  });
});

describe('CLI: --profile real', () => {
  it('serves the real profile: 299-second tokens and gzip-looking continuation tokens', async () => {
    const cli = runCli(['--profile', 'real', '--endpoints', '20', '--now', '2026-06-15T12:00:00Z']);
    running = cli;
    while (!/admin URL/.test(cli.output())) {
      if (cli.exitCode !== null) throw new Error(`the CLI exited: ${cli.errors()}`);
      await once(cli.stdout as NodeJS.ReadableStream, 'data');
    }
    expect(cli.output()).toContain('(real profile,');
    const baseUrl = /base URL\s+(\S+)/.exec(cli.output())?.[1] ?? '';
    const tokenUrl = /token URL\s+(\S+)/.exec(cli.output())?.[1] ?? '';
    const gsmKey = /GSMs\s+(\S+)/.exec(cli.output())?.[1] ?? '';
    const tokenRes = await fetch(tokenUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'user-agent': UA,
        authorization: `Basic ${Buffer.from('skywatch-demo:demo-client-secret').toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'password',
        username: 'ops@example.com',
        password: 'demo-password',
        scope: 'SkyStatus.GSM',
      }).toString(),
    });
    const grant = (await tokenRes.json()) as { access_token: string; expires_in: number };
    expect(grant.expires_in).toBe(299);
    const page = (await (
      await fetch(`${baseUrl}/api/status/gsm/${gsmKey}?batchSize=2`, {
        headers: { authorization: `Bearer ${grant.access_token}`, 'user-agent': UA },
      })
    ).json()) as { ContinuationToken: string };
    expect(page.ContinuationToken).toMatch(/^H4sI[\w-]+$/);
  });
});
