import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { findMotoPython } from './moto-python.js';

export { ensureMotoPython, MotoMissingError } from './moto-python.js';

/**
 * Local AWS endpoints (S3, SNS, SQS, Secrets Manager on one port) from moto's server, run by
 * the python ./moto-python.ts finds (the system's, or the project's `.venv-moto/`). Used by the
 * integration tests and by `npm start`.
 */
export interface MotoServer {
  /** Always 127.0.0.1: the SDK's virtual-host addressing breaks on `localhost`. */
  endpoint: string;
  /** The server's process, for the benchmarks' CPU accounting. */
  pid: number | undefined;
  stop(): Promise<void>;
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

export interface StartMotoOptions {
  port?: number;
  python?: string;
  /**
   * Extra environment for moto's process (over ours), e.g. `S3_UPLOAD_PART_MIN_SIZE` so a
   * suite can cut small multipart parts while moto still refuses smaller ones.
   */
  env?: Record<string, string>;
}

/**
 * `python -m moto.server` with keep-alive connections and S3's atomic conditional writes: see
 * the script's own notes.
 */
const MOTO_SERVER_SCRIPT = fileURLToPath(new URL('./moto_server.py', import.meta.url));

/** Starts moto on a free port (or `port`) and waits until it answers. */
export async function startMoto(options: StartMotoOptions = {}): Promise<MotoServer> {
  const python = options.python ?? findMotoPython();
  const port = options.port ?? (await freePort());
  const child = spawn(python, [MOTO_SERVER_SCRIPT, '-H', '127.0.0.1', '-p', String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
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
      // The grace does not hold this process open (a running moto's handle does, so the
      // SIGKILL still comes): once moto has exited, nothing waits the grace out.
      const grace = sleep(3000, undefined, { ref: false });
      await Promise.race([exited, grace.then(() => child.kill('SIGKILL'))]);
    },
  };
}
