import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConflictError, StateStore } from '../../lib/aws/index.js';
import { type LocalAws, startLocalAws } from '../support/local-aws.js';

let aws: LocalAws;
let state: StateStore;
const Cursor = z.object({ at: z.string() });

beforeAll(async () => {
  aws = await startLocalAws();
  const res = await aws.provision();
  state = new StateStore(aws.clients.s3, res.bucket);
});
afterAll(async () => aws?.moto.stop());

describe('Class: StateStore', () => {
  it('lets exactly one of many concurrent creators claim a record', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, i) => state.create('claims/one.json', { by: i })),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(1);
  });

  it('advances a cursor only from the version it read', async () => {
    const etag = await state.put('cursors/a.json', { at: '1' });
    const read = await state.get('cursors/a.json', Cursor);
    expect(read).toEqual({ value: { at: '1' }, etag });
    await state.put('cursors/a.json', { at: '2' }, { ifMatch: etag });
    await expect(
      state.put('cursors/a.json', { at: '3' }, { ifMatch: etag }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect((await state.get('cursors/a.json', Cursor))?.value.at).toBe('2');
  });

  it('answers undefined for a missing record and rejects a malformed one', async () => {
    expect(await state.get('cursors/missing.json', Cursor)).toBeUndefined();
    await state.put('cursors/bad.json', { at: 5 });
    await expect(state.get('cursors/bad.json', Cursor)).rejects.toThrow(/Cannot read state/);
  });

  it('lists the keys under a prefix across pages, relative to the store', async () => {
    const keys = ['listed/a.json', 'listed/b.json', 'listed/c.json', 'listed/d/e.json'];
    await Promise.all(keys.map((key) => state.put(key, { at: key })));
    await state.put('listed-elsewhere.json', { at: 'x' });
    const listed: string[] = [];
    for await (const key of state.list('listed/', 2)) listed.push(key);
    expect(listed.sort()).toEqual(keys);
  });
});
