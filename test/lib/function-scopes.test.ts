import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  allOperationScopes,
  FUNCTION_OPERATIONS,
  functionScopes,
  OPERATION_SCOPES,
} from '../../lib/index.js';

const FUNCTIONS = join(import.meta.dirname, '../../functions');
const OPS = Object.keys(OPERATION_SCOPES);

/** Methods that stand for several operations: `statusAsSent` may call any of 4.1–4.4. */
const STANDS_FOR = new Map([
  ['statusAsSent', ['siteAgentStatus', 'siteDnspStatus', 'gsmAgentStatus', 'gsmDnspStatus']],
]);

const LIB = join(import.meta.dirname, '../../lib');
// lib folders that define the client rather than call it.
const CLIENT_FOLDERS = new Set(['client', 'auth', 'http', 'errors', 'paging', 'schemas']);

/** TypeScript sources of a folder. */
function sources(dir: string): string[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.ts'))
    .map((file) => readFileSync(join(dir, file), 'utf8'));
}

/**
 * The client operations a function folder's source calls, read from the source itself and from
 * the lib folders it imports that call the client on its behalf (lib/reports, for one).
 */
function calledOperations(folder: string): string[] {
  const texts = sources(join(FUNCTIONS, folder));
  // A function that runs another's code (the archive worker runs the report fetcher's tasks)
  // calls what that code calls.
  for (const text of [...texts]) {
    for (const m of text.matchAll(/from '\.\.\/([\w-]+)\//g)) {
      const sibling = m[1] ?? '';
      if (sibling !== 'shared' && sibling !== '..' && sibling !== folder)
        texts.push(...sources(join(FUNCTIONS, sibling)));
    }
  }
  const libFolders = new Set<string>();
  for (const text of texts) {
    for (const m of text.matchAll(/from '\.\.\/\.\.\/lib\/(\w[\w-]*)\//g)) {
      if (!CLIENT_FOLDERS.has(m[1] ?? '')) libFolders.add(m[1] ?? '');
    }
  }
  for (const lib of libFolders) texts.push(...sources(join(LIB, lib)));
  const found = new Set<string>();
  for (const text of texts) {
    for (const m of text.matchAll(/\.(\w+)\(/g)) {
      const method = m[1] ?? '';
      for (const op of STANDS_FOR.get(method) ?? [method]) if (OPS.includes(op)) found.add(op);
    }
  }
  return [...found].sort();
}

describe('Table: FUNCTION_OPERATIONS', () => {
  const folders = readdirSync(FUNCTIONS).filter((f) => f !== 'shared');

  it('lists every function folder', () => {
    expect(Object.keys(FUNCTION_OPERATIONS).sort()).toEqual([...folders].sort());
  });

  for (const folder of folders) {
    it(`lists exactly the operations ${folder} calls`, () => {
      const listed = [...(FUNCTION_OPERATIONS[folder as keyof typeof FUNCTION_OPERATIONS] ?? [])];
      expect(listed.sort()).toEqual(calledOperations(folder));
    });
  }

  it('needs only scopes the default token asks for', () => {
    const base = 'https://h.example/service';
    const all = allOperationScopes(base);
    for (const fn of Object.keys(FUNCTION_OPERATIONS) as (keyof typeof FUNCTION_OPERATIONS)[]) {
      for (const scope of functionScopes(fn, base)) expect(all).toContain(scope);
    }
    expect(functionScopes('blocked-url-alerter', base)).toEqual([
      'SkyStatus.Reporting',
      'Console.GSM',
    ]);
    expect(functionScopes('token-refresher', base)).toEqual([]);
  });
});
