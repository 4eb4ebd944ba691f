import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRouting } from '../../lib/alerts/index.js';
import { main } from '../../scripts/alerts/main.js';

/** The routing example of docs/operations.md, read from the page, must be what the code does. */
const page = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
const section = page.slice(page.indexOf('### Routing'), page.indexOf('### Test alert'));
const blocks = (fence: string) =>
  [...section.matchAll(new RegExp(`\`\`\`${fence}\\n([\\s\\S]*?)\\n\`\`\``, 'g'))].map(
    (m) => m[1] ?? '',
  );

describe('Docs: the routing example', () => {
  it('is a valid document, and the explain shown is what the command prints', async () => {
    const [json] = blocks('json');
    const document = parseRouting(JSON.parse(json ?? ''));
    expect(document.routes.map((r) => r.name)).toEqual([
      'acme',
      'initech',
      'initech-routine',
      'test-lab',
      'critical',
    ]);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'sw-doc-')), 'routing.json');
    writeFileSync(file, json ?? '');
    const command = blocks('sh')[0]?.split('\n')[0] ?? '';
    const args = [...command.matchAll(/"([^"]+)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '');
    expect(args.slice(0, 4)).toEqual(['npm', 'run', 'alerts', '--']);
    const argv = args.slice(4).map((a) => (a === 'routing.json' ? file : a));
    let out = '';
    const status = await main(argv, { stdout: (t) => (out += t), stderr: () => {} });
    expect(status).toBe(0);
    const shown = /```\n(routing\.json is valid[\s\S]*?)\n```/.exec(section)?.[1];
    expect(out.trimEnd().replace(file, 'routing.json')).toBe(shown);
  });
});
