import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ensureMotoPython,
  findMotoPython,
  MotoMissingError,
  motoPythonPlan,
} from '../../scripts/local/moto-python.js';
import { ROOT } from '../support/root.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'skywatch-moto-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in python: a shell script; `venvPython` is the script `-m venv` writes. */
function fakePython(options: { venv: 'fails' | 'works'; pip: 'fails' | 'works' }): string {
  const venvPython = `#!/bin/sh
case "$*" in
  *find_spec*) [ -f "$(dirname "$0")/../moto-installed" ] && echo "$0" && exit 0; exit 1 ;;
  *"pip install"*) ${
    options.pip === 'works'
      ? 'touch "$(dirname "$0")/../moto-installed"; exit 0'
      : 'echo "ERROR: No matching distribution found for moto[server]>=5" >&2; exit 1'
  } ;;
esac
exit 2
`;
  const base = path.join(dir, 'python3');
  writeFileSync(
    base,
    `#!/bin/sh
case "$*" in
  *find_spec*) exit 1 ;;
  "-m venv "*) ${
    options.venv === 'works'
      ? `mkdir -p "$3/bin" && cat > "$3/bin/python3" <<'PY'\n${venvPython}PY\nchmod 755 "$3/bin/python3"; exit 0`
      : 'echo "Error: ensurepip is not available" >&2; exit 1'
  } ;;
esac
exit 2
`,
  );
  chmodSync(base, 0o755);
  return base;
}

describe('motoPythonPlan', () => {
  it('asks python3 first and keeps the venv in .venv-moto/ at the project root', () => {
    expect(motoPythonPlan({})).toEqual({
      base: 'python3',
      venv: path.join(ROOT, '.venv-moto'),
      venvPython: path.join(ROOT, '.venv-moto', 'bin', 'python3'),
    });
  });

  it('takes the python and the venv from SKYWATCH_MOTO_PYTHON and SKYWATCH_MOTO_VENV', () => {
    const plan = motoPythonPlan({ SKYWATCH_MOTO_PYTHON: '/opt/py', SKYWATCH_MOTO_VENV: dir });
    expect(plan).toEqual({
      base: '/opt/py',
      venv: dir,
      venvPython: path.join(dir, 'bin', 'python3'),
    });
  });
});

describe('findMotoPython', () => {
  it("uses this machine's python3, which has moto, by its interpreter's own path", () => {
    const python = findMotoPython({});
    expect(path.isAbsolute(python)).toBe(true);
    expect(spawnSync(python, ['-c', 'import moto.server'], { stdio: 'ignore' }).status).toBe(0);
    // A shim (pyenv's python3 is a shell script) is skipped: the path is the interpreter.
    expect(readFileSync(python).subarray(0, 2).toString()).not.toBe('#!');
  });

  it("keeps SKYWATCH_MOTO_PYTHON as given, a wrapper of the user's included", () => {
    const wrapper = path.join(dir, 'my-python');
    writeFileSync(wrapper, '#!/bin/sh\necho /somewhere/else/python3\n');
    chmodSync(wrapper, 0o755);
    expect(findMotoPython({ SKYWATCH_MOTO_PYTHON: wrapper, SKYWATCH_MOTO_VENV: dir })).toBe(
      wrapper,
    );
  });

  it('names the python and the venv it looked in when neither has moto', () => {
    const env = { SKYWATCH_MOTO_PYTHON: path.join(dir, 'nowhere'), SKYWATCH_MOTO_VENV: dir };
    expect(() => findMotoPython(env)).toThrow(MotoMissingError);
    expect(() => findMotoPython(env)).toThrow(
      `neither ${path.join(dir, 'nowhere')} nor the virtualenv ${dir} has it`,
    );
  });
});

describe('ensureMotoPython on a machine without moto', () => {
  const run = (python: string) => {
    const said: string[] = [];
    const venv = path.join(dir, 'venv');
    const env = { SKYWATCH_MOTO_PYTHON: python, SKYWATCH_MOTO_VENV: venv };
    const attempt = () => ensureMotoPython({ env, say: (line) => said.push(line) });
    return { said, venv, attempt };
  };

  it('installs moto into the venv, says so once, and reuses the venv afterwards', () => {
    const { said, venv, attempt } = run(fakePython({ venv: 'works', pip: 'works' }));
    expect(attempt()).toBe(path.join(venv, 'bin', 'python3'));
    expect(attempt()).toBe(path.join(venv, 'bin', 'python3'));
    expect(said).toEqual([
      `skywatch: moto's server is missing; installing 'moto[server]>=5' from PyPI into ${venv} (once; later runs reuse it).`,
    ]);
  });

  it("stops with pip's own words when PyPI cannot be reached", () => {
    const { attempt } = run(fakePython({ venv: 'works', pip: 'fails' }));
    expect(attempt).toThrow(MotoMissingError);
    expect(attempt).toThrow(
      /pip could not install 'moto\[server\]>=5' into .*venv:\n {2}ERROR: No matching distribution/,
    );
    expect(attempt).toThrow(/python3 -m pip install 'moto\[server\]>=5'/);
  });

  it('says Python 3 itself is missing when the python cannot be run', () => {
    const { said, attempt } = run(path.join(dir, 'no-python-here'));
    expect(attempt).toThrow(
      /cannot be run \(spawnSync .*ENOENT\); install Python 3 or set SKYWATCH_MOTO_PYTHON/,
    );
    expect(said[0]).toMatch(/^skywatch: moto's server is missing; installing/);
  });

  it('points at python3-venv when the venv cannot be made', () => {
    const { attempt } = run(fakePython({ venv: 'fails', pip: 'works' }));
    expect(attempt).toThrow(
      /-m venv could not create .*\n {2}Error: ensurepip is not available\nOn Debian or Ubuntu, install the python3-venv package first/,
    );
  });
});
