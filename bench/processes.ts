import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { bundleFunction } from '../infra/bundling.js';

export interface EmulatorProcess {
  baseUrl: string;
  authUrl: string;
  adminUrl: string;
  gsm: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

const TSX = ['--import', 'tsx'];

/**
 * The emulator's command bundled once a run, not compiled by tsx at every start, in a folder of
 * this process's own: two bench runs at once never load each other's half-written file.
 */
let emulatorBundle: string | undefined;
function emulatorCommand(): string {
  if (emulatorBundle) return emulatorBundle;
  const dir = mkdtempSync(join(tmpdir(), 'skywatch-bench-emulator-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  emulatorBundle = bundleFunction('emulator/cli.ts', join(dir, 'emulator.mjs'));
  return emulatorBundle;
}

/**
 * The emulator in its own process (a larger young generation: it builds megabytes of JSON a
 * second), so the measured process pays only for the client side.
 */
export async function startEmulatorProcess(args: string[]): Promise<EmulatorProcess> {
  const flags = ['--max-semi-space-size=64', '--enable-source-maps'];
  const child = spawn(process.execPath, [...flags, emulatorCommand(), '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
    out += chunk.toString();
    if (out.includes('admin URL')) break;
  }
  const find = (label: string) => new RegExp(`${label}\\s+(\\S+)`).exec(out)?.[1] ?? '';
  const baseUrl = find('base URL');
  const adminUrl = find('admin URL').replace(/\/info$/, '');
  const info = (await (await fetch(`${adminUrl}/info`)).json()) as { gsms: { key: string }[] };
  return {
    baseUrl,
    authUrl: find('token URL').replace(/\/auth\/token$/, ''),
    adminUrl,
    gsm: info.gsms[0]?.key ?? '',
    pid: child.pid,
    stop: () => stopChild(child),
  };
}

/** The emulator serving one GSM of `endpoints` endpoints over `sites` sites, at a fixed time. */
export function startConsoleProcess(sites: number, endpoints: number): Promise<EmulatorProcess> {
  return startEmulatorProcess([
    ...['--gsms', '1', '--sites', String(sites), '--endpoints', String(endpoints)],
    ...['--now', '2026-06-15T12:00:00Z'],
  ]);
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/** A measurement that did not finish: its figures would be meaningless, so none are reported. */
export class WorkerFailure extends Error {
  override name = 'WorkerFailure';
}

/**
 * Runs a script in a fresh Node process (this one's Node unless `node` names another binary) and
 * answers the last JSON line it printed: a TypeScript file through tsx, a bundle (.mjs) as it is.
 * Rejects with a WorkerFailure when the script reports `{ "error": … }`, exits with another code
 * than 0, or prints no JSON: a broken measurement must stop the bench, not print as a missed
 * target made of undefined figures.
 */
export async function runWorker<T>(
  file: string,
  args: string[],
  nodeFlags: string[] = [],
  node = process.execPath,
): Promise<T> {
  const loader = file.endsWith('.ts') ? TSX : [];
  const child = spawn(node, [...nodeFlags, ...loader, file, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  const what = `${basename(file)} ${args[0] ?? ''}`.trim();
  const result = lastJsonLine(out);
  if (result && typeof result === 'object' && 'error' in result) {
    throw new WorkerFailure(`${what} failed: ${String(result.error)}`);
  }
  if (code !== 0) {
    throw new WorkerFailure(
      `${what} ${signal ? `was killed by ${signal}` : `exited with ${code}`}`,
    );
  }
  if (result === undefined || result === null) {
    throw new WorkerFailure(`${what} printed no result`);
  }
  return result as T;
}

function lastJsonLine(out: string): unknown {
  try {
    return JSON.parse(out.trim().split('\n').at(-1) ?? '');
  } catch {
    return undefined;
  }
}
