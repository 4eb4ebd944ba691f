import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Local AWS endpoints (S3, SNS, SQS, Secrets Manager on one port) from moto's server, which
 * these machines ship with their python3. Used by the integration tests and by `npm start`.
 */
export interface MotoServer {
  /** Always 127.0.0.1: the SDK's virtual-host addressing breaks on `localhost`. */
  endpoint: string;
  /** The server's process, for the benchmarks' CPU accounting. */
  pid: number | undefined;
  stop(): Promise<void>;
}

export class MotoMissingError extends Error {
  constructor() {
    super(
      "moto's server is not installed for python3. Install it with: python3 -m pip install 'moto[server]' " +
        '(it provides the local S3, SNS, SQS and Secrets Manager endpoints).',
    );
    this.name = 'MotoMissingError';
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export function motoInstalled(python = 'python3'): boolean {
  return spawnSync(python, ['-c', 'import moto.server'], { stdio: 'ignore' }).status === 0;
}

async function waitUntilUp(
  endpoint: string,
  child: ChildProcess,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`moto exited early with code ${child.exitCode}`);
    try {
      const res = await fetch(`${endpoint}/moto-api/data.json`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`moto did not start within ${timeoutMs} ms`);
}

/** Starts moto on a free port (or `port`) and waits until it answers. */
export async function startMoto(
  options: { port?: number; python?: string } = {},
): Promise<MotoServer> {
  const python = options.python ?? 'python3';
  if (!motoInstalled(python)) throw new MotoMissingError();
  const port = options.port ?? (await freePort());
  const child = spawn(python, ['-m', 'moto.server', '-H', '127.0.0.1', '-p', String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitUntilUp(endpoint, child, 30_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n${stderr}`);
  }
  return {
    endpoint,
    pid: child.pid,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(3000).then(() => child.kill('SIGKILL'))]);
    },
  };
}
