import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { STATUS_OPTIONS, statusPageDigests } from './golden/cases.js';
import golden from './golden/status-pages.json' with { type: 'json' };

let em: Emulator;

beforeAll(async () => {
  em = await startEmulator(STATUS_OPTIONS);
});
afterAll(() => em.close());

describe('Status pages: golden bytes', () => {
  it('renders every recorded page byte for byte as the implementation before the speed work', async () => {
    const digests = await statusPageDigests(em);
    expect(Object.keys(digests)).toHaveLength(Object.keys(golden.pages).length);
    expect(digests).toEqual(golden.pages);
  });
});
