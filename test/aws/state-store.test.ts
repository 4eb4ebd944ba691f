import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConflictError,
  ObjectGoneError,
  StateStore,
  StorageError,
  s3Client,
} from '../../lib/aws/index.js';
import { LOCAL_CREDENTIALS, type LocalAws, startLocalAws } from '../support/local-aws.js';

let aws: LocalAws;
let res: Awaited<ReturnType<LocalAws['provision']>>;
let state: StateStore;
const Cursor = z.object({ at: z.string() });

/** A store on a client of its own that counts the objects it reads (GetObject requests). */
function countingStore(maxCopies?: number) {
  const s3 = s3Client({
    endpoint: aws.moto.endpoint,
    region: 'us-east-1',
    credentials: LOCAL_CREDENTIALS,
  });
  const reads = { n: 0 };
  s3.middlewareStack.add(
    (next, context) => (args) => {
      if (context.commandName === 'GetObjectCommand') reads.n++;
      return next(args);
    },
    { step: 'initialize', name: 'countReads' },
  );
  return { store: new StateStore(s3, res.bucket, 'state/', maxCopies), reads };
}

/** The ETags a listing gives, by key. */
async function listed(store: StateStore, prefix: string): Promise<Map<string, string>> {
  const etags = new Map<string, string>();
  for await (const { key, etag } of store.list(prefix)) etags.set(key, etag);
  return etags;
}

beforeAll(async () => {
  aws = await startLocalAws();
  res = await aws.provision();
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

  it('replaces only the version read, and creates only when none was read', async () => {
    expect(await state.replace('cursors/r.json', { at: '1' }, undefined)).toBe(true);
    // A second creator that read nothing loses: a record exists now.
    expect(await state.replace('cursors/r.json', { at: 'x' }, undefined)).toBe(false);
    const first = await state.get('cursors/r.json', Cursor);
    expect(await state.replace('cursors/r.json', { at: '2' }, first)).toBe(true);
    // Its rival read the same version and comes second; a removed record is gone for it too.
    expect(await state.replace('cursors/r.json', { at: 'y' }, first)).toBe(false);
    expect((await state.get('cursors/r.json', Cursor))?.value.at).toBe('2');
    const second = await state.get('cursors/r.json', Cursor);
    await state.delete('cursors/r.json');
    expect(await state.replace('cursors/r.json', { at: 'z' }, second)).toBe(false);
    expect(await state.get('cursors/r.json', Cursor)).toBeUndefined();
  });

  it('raises ObjectGoneError, a StorageError, for a write conditional on a removed record', async () => {
    // Prepare: a record read, then removed by another run.
    const etag = await state.put('cursors/gone.json', { at: '1' });
    await state.delete('cursors/gone.json');
    // Act
    const failure = state.put('cursors/gone.json', { at: '2' }, { ifMatch: etag });
    // Assess
    await expect(failure).rejects.toBeInstanceOf(ObjectGoneError);
    await expect(failure).rejects.toBeInstanceOf(StorageError);
    expect(await state.get('cursors/gone.json', Cursor)).toBeUndefined();
  });

  it('answers undefined for a missing record and rejects a malformed one', async () => {
    expect(await state.get('cursors/missing.json', Cursor)).toBeUndefined();
    await state.put('cursors/bad.json', { at: 5 });
    await expect(state.get('cursors/bad.json', Cursor)).rejects.toThrow(/Cannot read state/);
  });

  it('lists the records under a prefix with keys relative to its own and their ETags', async () => {
    const a = await state.put('list/x/a.json', { at: '1' });
    const b = await state.put('list/x/b.json', { at: '2' });
    await state.put('list/y/c.json', { at: '3' });
    const listed = [];
    for await (const entry of state.list('list/x/')) listed.push(entry);
    expect(listed).toEqual([
      { key: 'list/x/a.json', etag: a },
      { key: 'list/x/b.json', etag: b },
    ]);
  });

  it('updates from the version it read, reading again after losing a race', async () => {
    // Prepare: a store whose first read is followed at once by a rival's write.
    await state.put('update/a.json', { at: '1' });
    class RacedStore extends StateStore {
      raced = false;
      override async get<T>(key: string, schema: z.ZodType<T>) {
        const read = await super.get(key, schema);
        if (!this.raced) {
          this.raced = true;
          await super.put(key, { at: 'rival' });
        }
        return read;
      }
    }
    const raced = new RacedStore(aws.clients.s3, res.bucket);
    const seen: (string | undefined)[] = [];
    // Act
    const wrote = await raced.update('update/a.json', Cursor, (current) => {
      seen.push(current?.at);
      return { at: `${current?.at}+1` };
    });
    // Assess: the first write lost to the rival; the second is based on the rival's value.
    expect(wrote).toBe(true);
    expect(seen).toEqual(['1', 'rival']);
    expect((await state.get('update/a.json', Cursor))?.value.at).toBe('rival+1');
  });

  it('creates a missing record on update, and writes nothing when told to leave it', async () => {
    expect(await state.update('update/new.json', Cursor, () => ({ at: '1' }))).toBe(true);
    const etag = (await state.get('update/new.json', Cursor))?.etag;
    expect(await state.update('update/new.json', Cursor, () => undefined)).toBe(false);
    expect((await state.get('update/new.json', Cursor))?.etag).toBe(etag);
  });

  it('lists the keys under a prefix across pages, relative to the store', async () => {
    const keys = ['listed/a.json', 'listed/b.json', 'listed/c.json', 'listed/d/e.json'];
    await Promise.all(keys.map((key) => state.put(key, { at: key })));
    await state.put('listed-elsewhere.json', { at: 'x' });
    const listed: string[] = [];
    for await (const { key } of state.list('listed/', 2)) listed.push(key);
    expect(listed.sort()).toEqual(keys);
  });

  it('reads a listed record once, then only when a listing shows it changed', async () => {
    const { store, reads } = countingStore();
    await state.put('copies/a.json', { at: '1' });
    const first = await store.getListed(
      'copies/a.json',
      (await listed(store, 'copies/'))?.get('copies/a.json') ?? '',
      Cursor,
    );
    const again = await store.getListed(
      'copies/a.json',
      (await listed(store, 'copies/')).get('copies/a.json') ?? '',
      Cursor,
    );
    expect({ first: first?.value, again, reads: reads.n }).toEqual({
      first: { at: '1' },
      again: first,
      reads: 1,
    });
    // Another writer (another container, another run) moves it: the next listing says so.
    const moved = await state.put('copies/a.json', { at: '2' });
    const etag = (await listed(store, 'copies/')).get('copies/a.json') ?? '';
    expect(await store.getListed('copies/a.json', etag, Cursor)).toEqual({
      value: { at: '2' },
      etag: moved,
    });
    expect(reads.n).toBe(2);
  });

  it('keeps its own writes and reads of a listed record, and forgets a deleted one', async () => {
    const { store, reads } = countingStore();
    const etag = await store.put('copies/own.json', { at: '1' });
    await store.getListed('copies/own.json', etag, Cursor);
    // A conditional write from the version read: the copy follows, no read needed after it.
    const written = await store.put('copies/own.json', { at: '2' }, { ifMatch: etag });
    expect(await store.getListed('copies/own.json', written, Cursor)).toEqual({
      value: { at: '2' },
      etag: written,
    });
    // A plain read of a kept record refreshes the copy too.
    const rival = await state.put('copies/own.json', { at: '3' });
    expect((await store.get('copies/own.json', Cursor))?.value.at).toBe('3');
    expect((await store.getListed('copies/own.json', rival, Cursor))?.value.at).toBe('3');
    expect(reads.n).toBe(2);
    // Deleted, then created again by another writer with the bytes the copy had: read anew.
    await store.delete('copies/own.json');
    const recreated = await state.put('copies/own.json', { at: '3' });
    expect((await store.getListed('copies/own.json', recreated, Cursor))?.value.at).toBe('3');
    expect(reads.n).toBe(3);
  });

  it('gives each caller its own value to change, and reads what no listing vouched for', async () => {
    const { store, reads } = countingStore();
    const etag = await state.put('copies/shared.json', { at: '1' });
    const one = await store.getListed('copies/shared.json', etag, Cursor);
    if (one) one.value.at = 'changed by a caller';
    expect((await store.getListed('copies/shared.json', etag, Cursor))?.value.at).toBe('1');
    // A listing that gave no ETag vouches for nothing.
    await store.getListed('copies/shared.json', '', Cursor);
    expect(reads.n).toBe(2);
    // A record gone since its listing reads as absent.
    await state.delete('copies/shared.json');
    expect(await store.getListed('copies/shared.json', 'stale', Cursor)).toBeUndefined();
  });

  it('keeps at most the copies it was told to, dropping the least recently read', async () => {
    const { store, reads } = countingStore(2);
    const etags = await Promise.all(
      ['x', 'y', 'z'].map((k) => state.put(`copies/few/${k}.json`, { at: k })),
    );
    const [x, y, z] = etags.map((etag, i) => ({ key: `copies/few/${'xyz'[i]}.json`, etag }));
    for (const r of [x, y, x, z]) if (r) await store.getListed(r.key, r.etag, Cursor);
    expect(reads.n).toBe(3);
    // x was read again after y, so y went when z came.
    for (const r of [x, z]) if (r) await store.getListed(r.key, r.etag, Cursor);
    expect(reads.n).toBe(3);
    if (y) await store.getListed(y.key, y.etag, Cursor);
    expect(reads.n).toBe(4);
  });

  it('refuses a kept copy that no longer fits the schema asked for, as a read would', async () => {
    const { store } = countingStore();
    const etag = await state.put('copies/typed.json', { at: '1' });
    await store.getListed('copies/typed.json', etag, Cursor);
    const Other = z.object({ at: z.number() });
    await expect(store.getListed('copies/typed.json', etag, Other)).rejects.toThrow(
      /Cannot read state copies\/typed.json/,
    );
  });
});
