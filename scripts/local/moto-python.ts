import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Which python runs moto's server. A fresh machine needs only Python 3: when no python has
 * moto, `npm start` and `npm test` install it from PyPI into a project-local virtualenv
 * (`.venv-moto/`, gitignored) once, and use it from then on. .ci/run relies on the same.
 *
 * SKYWATCH_MOTO_PYTHON forces the python looked at first and the venv is built from (default
 * `python3`); SKYWATCH_MOTO_VENV moves the venv. Tests use both to play a machine without moto.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The pip requirement the venv gets: moto 5 serves every service from one port. */
export const MOTO_REQUIREMENT = 'moto[server]>=5';

export class MotoMissingError extends Error {
  constructor(detail: string) {
    super(
      `moto's server is not available: ${detail}\n` +
        `Install it yourself with: python3 -m pip install '${MOTO_REQUIREMENT}' ` +
        '(it provides the local S3, SNS, SQS and Secrets Manager endpoints).',
    );
    this.name = 'MotoMissingError';
  }
}

export interface MotoPythonOptions {
  env?: NodeJS.ProcessEnv;
  /** Where progress goes; stderr unless told. */
  say?: (line: string) => void;
}

/** The python that is asked first and builds the venv, and where the venv lives. */
export function motoPythonPlan(env: NodeJS.ProcessEnv = process.env) {
  const base = env.SKYWATCH_MOTO_PYTHON || 'python3';
  const venv = path.resolve(ROOT, env.SKYWATCH_MOTO_VENV || '.venv-moto');
  const venvPython =
    process.platform === 'win32'
      ? path.join(venv, 'Scripts', 'python.exe')
      : path.join(venv, 'bin', 'python3');
  return { base, venv, venvPython };
}

/**
 * Whether a python has moto and what `moto[server]` adds, found without importing them
 * (importing moto.server takes most of a CPU-second); it prints the interpreter's own path.
 */
const MOTO_CHECK = [
  'import importlib.util as u, sys',
  "if not all(u.find_spec(m) for m in ('moto', 'flask', 'flask_cors')): sys.exit(1)",
  'print(sys.executable)',
].join('\n');

/**
 * The interpreter behind `python` when it has moto's server, else undefined. Its own path, not
 * the command's: a version manager's shim (pyenv's `python3` is a shell script) costs half a
 * CPU-second at every start of moto.
 */
export function motoInterpreter(python: string): string | undefined {
  const run = spawnSync(python, ['-c', MOTO_CHECK], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  if (run.status !== 0) return undefined;
  return run.stdout.trim() || python;
}

/** Found once a process, by the python asked first and the venv. */
const found = new Map<string, string>();

/**
 * The first python that has moto's server: the forced one (SKYWATCH_MOTO_PYTHON, as given: it may
 * be a wrapper of the user's) or the system's, then the venv's, the latter two as their
 * interpreter's own path. Throws {@link MotoMissingError} saying how to get it;
 * {@link ensureMotoPython} installs it.
 */
export function findMotoPython(env: NodeJS.ProcessEnv = process.env): string {
  const { base, venv, venvPython } = motoPythonPlan(env);
  const key = `${base}\n${venv}`;
  const known = found.get(key);
  if (known) return known;
  const viaBase = motoInterpreter(base);
  let interpreter: string | undefined;
  if (viaBase !== undefined) interpreter = env.SKYWATCH_MOTO_PYTHON ? base : viaBase;
  else if (existsSync(venvPython)) interpreter = motoInterpreter(venvPython);
  if (interpreter === undefined) {
    throw new MotoMissingError(
      `neither ${base} nor the virtualenv ${venv} has it (npm start and npm test set it up).`,
    );
  }
  found.set(key, interpreter);
  return interpreter;
}

/**
 * {@link findMotoPython}, installing moto into the venv first when no python has it. Says once
 * on stderr what it does; throws {@link MotoMissingError} naming the step that failed.
 */
export function ensureMotoPython(options: MotoPythonOptions = {}): string {
  const env = options.env ?? process.env;
  const say = options.say ?? ((line: string) => process.stderr.write(`${line}\n`));
  try {
    return findMotoPython(env);
  } catch (error) {
    if (!(error instanceof MotoMissingError)) throw error;
  }
  const { base, venv, venvPython } = motoPythonPlan(env);
  say(
    `skywatch: moto's server is missing; installing '${MOTO_REQUIREMENT}' from PyPI into ${venv} (once; later runs reuse it).`,
  );
  if (!existsSync(venvPython)) {
    run(base, ['-m', 'venv', venv], `${base} -m venv could not create ${venv}`, [
      'On Debian or Ubuntu, install the python3-venv package first.',
    ]);
  }
  run(
    venvPython,
    ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', MOTO_REQUIREMENT],
    `pip could not install '${MOTO_REQUIREMENT}' into ${venv}`,
    ['It needs to reach PyPI (or a mirror set with PIP_INDEX_URL).'],
  );
  // Found as any other run finds it, and remembered for the rest of this process.
  try {
    return findMotoPython(env);
  } catch {
    throw new MotoMissingError(`${venvPython} still cannot import moto.server after installing.`);
  }
}

function run(command: string, args: string[], failure: string, hints: string[]): void {
  const result = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status === 0) return;
  if (result.error) {
    // Not there at all: no hint about packages would help.
    throw new MotoMissingError(
      `${failure}: ${command} cannot be run (${result.error.message}); install Python 3 or set SKYWATCH_MOTO_PYTHON.`,
    );
  }
  const output = `${result.stderr}${result.stdout}`.trim().split('\n').slice(-5);
  throw new MotoMissingError([`${failure}:`, `  ${output.join('\n  ')}`, ...hints].join('\n'));
}
