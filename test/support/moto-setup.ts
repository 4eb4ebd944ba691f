import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { ensureMotoPython, type MotoServer, startMoto } from '../../scripts/local/moto-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * Answers `GET /<slot>` with `{ endpoint, pid }` of that worker slot's moto, started when
     * first asked for.
     */
    motoBroker: string;
  }
}

interface SharedMotos {
  url: string;
  broker: Server;
  motos: Map<string, Promise<MotoServer>>;
  users: number;
}

// Every project runs the global setup, one after another in vitest's own process (and each
// may load this module afresh): the first starts the broker, the others share it.
const SHARED = Symbol.for('skywatch.test.sharedMotos');
const store = globalThis as { [SHARED]?: SharedMotos };

async function startBroker(): Promise<SharedMotos> {
  // Before any worker, so that two workers never build the moto virtualenv at the same time.
  // On a machine without moto it installs it (and says so); if that fails, the run stops here
  // with one message instead of every AWS suite failing.
  const python = ensureMotoPython();
  // Workers and the commands and benchmarks they start find the same interpreter at once.
  process.env.SKYWATCH_MOTO_PYTHON = python;
  const motos = new Map<string, Promise<MotoServer>>();
  const broker = createServer((req, res) => {
    const slot = req.url ?? '/';
    let moto = motos.get(slot);
    if (!moto) {
      moto = startMoto({ python });
      motos.set(slot, moto);
    }
    moto.then(
      ({ endpoint, pid }) => res.end(JSON.stringify({ endpoint, pid })),
      (error: unknown) => res.writeHead(500).end((error as Error).message),
    );
  });
  await new Promise<void>((resolve) => broker.listen(0, '127.0.0.1', resolve));
  const { port } = broker.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, broker, motos, users: 0 };
}

/**
 * Vitest global setup: one moto server per worker slot for the whole run, started when a suite
 * of that slot first asks for it (test/support/local-aws.ts), instead of one per test file.
 * Suites share it safely because each provisions its resources under a unique name; a suite
 * that needs moto started differently (an environment of its own) still starts its own.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  store[SHARED] ??= await startBroker();
  const shared = store[SHARED];
  shared.users++;
  project.provide('motoBroker', shared.url);
  return async () => {
    if (--shared.users > 0) return;
    store[SHARED] = undefined;
    shared.broker.closeAllConnections();
    shared.broker.close();
    const started = await Promise.allSettled(shared.motos.values());
    await Promise.all(started.map((moto) => moto.status === 'fulfilled' && moto.value.stop()));
  };
}
