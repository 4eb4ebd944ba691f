import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The headless Chromium the report-page tests and the bench open pages in. It comes with
 * `npm ci`: @sparticuz/chromium ships a brotli-packed Chromium for Linux x64 and arm64 inside
 * the npm package, so a fresh machine needs nothing from apt or a browser download (which this
 * project's machines cannot reach). `CHROMIUM_PATH` names a browser of the user's choice
 * instead, and is the way on macOS and Windows, which the package does not serve.
 */
export class ChromiumUnavailableError extends Error {
  override name = 'ChromiumUnavailableError';
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where the packaged browser is unpacked: one folder per package version, never shared. */
function unpackDir(): string {
  const manifest = join(ROOT, 'node_modules', '@sparticuz', 'chromium', 'package.json');
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  return join(ROOT, 'node_modules', '.cache', 'skywatch-chromium', version);
}

/**
 * The package unpacks into `os.tmpdir()` and takes any `chromium` it finds there as its own,
 * whatever its version or however half-written a killed run left it; two test workers unpacking
 * at once would also write the same files. So it unpacks into a private folder (its `tmpdir()`
 * follows TMPDIR), renamed into place only once complete: a folder that exists is whole.
 */
async function unpackPackaged(): Promise<string> {
  const dir = unpackDir();
  const binary = join(dir, 'chromium');
  if (existsSync(binary)) return binary;
  if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch))
    throw new ChromiumUnavailableError(
      `the packaged Chromium serves Linux x64 and arm64 only, not ${process.platform} ${process.arch}: set CHROMIUM_PATH to a Chromium or Chrome binary`,
    );
  const partial = `${dir}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  const savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = partial;
  try {
    const { default: packaged } = await import('@sparticuz/chromium');
    await packaged.executablePath();
  } finally {
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
  }
  try {
    await rename(partial, dir);
  } catch (error) {
    // Another process finished first: its folder is as whole as ours.
    await rm(partial, { recursive: true, force: true });
    if (!existsSync(binary)) throw error;
  }
  return binary;
}

/** `CHROMIUM_PATH` if set, else the browser packaged with the dev dependencies. */
export async function chromiumPath(): Promise<string> {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) {
    if (!existsSync(chosen))
      throw new ChromiumUnavailableError(`CHROMIUM_PATH=${chosen} does not exist`);
    return chosen;
  }
  return unpackPackaged();
}
