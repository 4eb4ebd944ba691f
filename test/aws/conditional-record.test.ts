import { randomBytes } from 'node:crypto';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type Claim,
  ClaimLostError,
  ConditionalRecords,
  StateStore,
  StorageError,
  type StoredRecord,
  type WriteCondition,
} from '../../lib/aws/index.js';
import { SkywatchError } from '../../lib/errors/index.js';
import { type LocalAws, startLocalAws } from '../support/local-aws.js';

/**
 * The claims protocol against moto's S3, attacked as a caller would be: racing claimers, a
 * claimer that dies between claim and complete or right after complete, a holder that outlives
 * its lease and still writes, a key reused for another payload, and random interleavings of all
 * of these. Every clock is the test's: leases pass in a step, not in real time.
 */
const LEASE = 60_000;
const Answer = z.object({ status: z.number(), body: z.string() });
type Answer = z.infer<typeof Answer>;

/** A StateStore that keeps every write S3 accepted, to check the chain they form. */
class RecordingStore extends StateStore {
  readonly accepted: { key: string; condition?: WriteCondition; etag: string; value: unknown }[] =
    [];
  override async put(key: string, value: unknown, condition?: WriteCondition): Promise<string> {
    const etag = await super.put(key, value, condition);
    this.accepted.push({ key, ...(condition ? { condition } : {}), etag, value });
    return etag;
  }
}

let aws: LocalAws;
let bucket: string;
let clock: number;
let keys = 0;

beforeAll(async () => {
  aws = await startLocalAws();
  bucket = `sw-claims-${randomBytes(4).toString('hex')}`;
  await aws.clients.s3.send(new CreateBucketCommand({ Bucket: bucket }));
});
afterAll(async () => aws?.moto.stop());

function setup() {
  const store = new RecordingStore(aws.clients.s3, bucket);
  const records = new ConditionalRecords(store, { result: Answer, now: () => clock });
  clock = Date.parse('2026-06-01T08:00:00.000Z');
  return { store, records, key: `claims/${++keys}.json` };
}

const claimant = (owner: string, digest = 'sha256:a') => ({ owner, digest, leaseMs: LEASE });

function claimed(outcome: Awaited<ReturnType<ConditionalRecords<Answer>['claim']>>): Claim {
  if (outcome.kind !== 'claimed') throw new Error(`expected a claim, got ${outcome.kind}`);
  return outcome.claim;
}

describe('Class: ConditionalRecords', () => {
  it('lets exactly one of two racing claimers claim, the other hearing it is held', async () => {
    // Prepare
    const { records, key } = setup();
    // Act
    const outcomes = await Promise.all([
      records.claim(key, claimant('a')),
      records.claim(key, claimant('b')),
    ]);
    // Assess
    expect(outcomes.map((o) => o.kind).sort()).toEqual(['claimed', 'held']);
  });

  it('keeps a claim whose owner died before completing until its lease ends, then lets one of two racers take it', async () => {
    // Prepare: a dies right after its claim.
    const { store, records, key } = setup();
    claimed(await records.claim(key, claimant('a')));
    // Act: a retry just inside the lease, then two racing retries once it has run out.
    clock += LEASE - 1;
    const early = await records.claim(key, claimant('b'));
    clock += 1;
    const racers = await Promise.all([
      records.claim(key, claimant('c')),
      records.claim(key, claimant('d')),
    ]);
    // Assess
    expect(early).toEqual({ kind: 'held', owner: 'a' });
    expect(racers.map((o) => o.kind).sort()).toEqual(['claimed', 'held']);
    const winner = racers.find((o) => o.kind === 'claimed');
    expect((await records.read(key))?.record).toMatchObject({
      state: 'pending',
      owner: winner?.kind === 'claimed' ? winner.claim.owner : 'none',
    });
    expect(store.accepted.filter((w) => w.key === key)).toHaveLength(2);
  });

  it('answers done with the stored result after its owner died right after completing, and never lets it run again', async () => {
    // Prepare
    const { records, key } = setup();
    const claim = claimed(await records.claim(key, claimant('a')));
    await records.complete(claim, { status: 200, body: 'ok' });
    // Act: retries long after any lease.
    clock += 100 * LEASE;
    const retries = await Promise.all([1, 2, 3].map((n) => records.claim(key, claimant(`r${n}`))));
    // Assess
    for (const retry of retries)
      expect(retry).toEqual({ kind: 'done', result: { status: 200, body: 'ok' } });
  });

  it('lets a retry claim at once after a release, for any payload', async () => {
    // Prepare
    const { records, key } = setup();
    const first = claimed(await records.claim(key, claimant('a', 'sha256:a')));
    await records.release(first);
    // Act: within what would have been a's lease, with another payload.
    clock += 1;
    const retry = await records.claim(key, claimant('b', 'sha256:b'));
    // Assess
    const claim = claimed(retry);
    await records.complete(claim, { status: 201, body: 'b' });
    expect(await records.claim(key, claimant('c', 'sha256:b'))).toMatchObject({ kind: 'done' });
  });

  it('refuses the same key for another payload, pending, abandoned or done', async () => {
    // Prepare
    const { records, key } = setup();
    const claim = claimed(await records.claim(key, claimant('a', 'sha256:a')));
    // Act and assess: live, abandoned, then done.
    expect(await records.claim(key, claimant('b', 'sha256:b'))).toEqual({ kind: 'mismatch' });
    clock += 10 * LEASE;
    expect(await records.claim(key, claimant('b', 'sha256:b'))).toEqual({ kind: 'mismatch' });
    expect(await records.claim(key, { owner: 'b', leaseMs: LEASE })).toEqual({ kind: 'mismatch' });
    await expect(records.complete(claim, { status: 200, body: 'a' })).resolves.toBeUndefined();
    expect(await records.claim(key, claimant('c', 'sha256:b'))).toEqual({ kind: 'mismatch' });
    expect(await records.claim(key, claimant('c', 'sha256:a'))).toMatchObject({ kind: 'done' });
  });

  it('refuses every write of an owner that outlived its lease and was taken over', async () => {
    // Prepare: a claims, stalls past its lease; b takes over.
    const { records, key } = setup();
    const stale = claimed(await records.claim(key, claimant('a')));
    clock += LEASE;
    const taker = claimed(await records.claim(key, claimant('b')));
    // Act: a wakes up and writes over what it believes is its claim.
    const writes = await Promise.allSettled([
      records.complete(stale, { status: 200, body: 'a' }),
      records.release(stale),
      records.renew(stale),
    ]);
    // Assess
    for (const write of writes) {
      const error = write.status === 'rejected' ? write.reason : undefined;
      expect(error).toBeInstanceOf(ClaimLostError);
      expect(error).toBeInstanceOf(SkywatchError);
      expect(error).toMatchObject({ name: 'ClaimLostError', key });
    }
    await records.complete(taker, { status: 200, body: 'b' });
    expect(await records.claim(key, claimant('c'))).toEqual({
      kind: 'done',
      result: { status: 200, body: 'b' },
    });
  });

  it('lets exactly one of two takers take over the same version', async () => {
    // Prepare
    const { records, key } = setup();
    claimed(await records.claim(key, claimant('a')));
    const seen = await records.read(key);
    if (!seen) throw new Error('no record');
    // Act
    const outcomes = await Promise.allSettled([
      records.takeOver(seen, { owner: 'b' }),
      records.takeOver(seen, { owner: 'c' }),
    ]);
    // Assess
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const lost = outcomes.find((o) => o.status === 'rejected');
    expect(lost?.status === 'rejected' && lost.reason).toBeInstanceOf(ClaimLostError);
  });

  it('reopens a done record only for a result the claimer names', async () => {
    // Prepare: a destination refused the event for good.
    const { records, key } = setup();
    const refusal = { status: 400, body: 'refused' };
    await records.complete(claimed(await records.claim(key, claimant('a'))), refusal);
    const onRedrive = (r: Answer) => r.status === 400;
    // Act and assess: a plain redelivery hears done, a redrive claims it again, once.
    expect(await records.claim(key, claimant('b'))).toEqual({ kind: 'done', result: refusal });
    const redrives = await Promise.all([
      records.claim(key, { ...claimant('c'), reopen: onRedrive }),
      records.claim(key, { ...claimant('d'), reopen: onRedrive }),
    ]);
    expect(redrives.map((o) => o.kind).sort()).toEqual(['claimed', 'held']);
    const redrive = redrives.find((o) => o.kind === 'claimed');
    if (redrive?.kind !== 'claimed') throw new Error('no redrive');
    await records.complete(redrive.claim, { status: 200, body: 'sent' });
    expect(await records.claim(key, { ...claimant('e'), reopen: onRedrive })).toMatchObject({
      kind: 'done',
      result: { status: 200 },
    });
  });

  it('keeps a renewing holder live past its first lease, with its progress typed', async () => {
    // Prepare
    const store = new StateStore(aws.clients.s3, bucket);
    const Progress = z.object({ pages: z.number() });
    const jobs = new ConditionalRecords(store, {
      result: z.never(),
      progress: Progress,
      now: () => clock,
    });
    const key = `claims/${++keys}.json`;
    let claim = claimed(
      await jobs.claim(key, { owner: 'a', leaseMs: LEASE, progress: { pages: 0 } }),
    );
    // Act: the holder saves progress within each lease.
    for (let page = 1; page <= 3; page++) {
      clock += LEASE - 1;
      claim = await jobs.renew(claim, { pages: page });
    }
    clock += LEASE - 1;
    // Assess
    expect(await jobs.claim(key, { owner: 'b', leaseMs: LEASE })).toEqual({
      kind: 'held',
      owner: 'a',
    });
    expect((await jobs.read(key))?.record).toMatchObject({
      state: 'pending',
      progress: { pages: 3 },
    });
  });

  it('refuses to read a stored result that breaks its schema', async () => {
    // Prepare
    const { store, records, key } = setup();
    await store.put(key, { state: 'done', result: { status: 'two hundred' } });
    // Act and assess
    await expect(records.claim(key, claimant('a'))).rejects.toBeInstanceOf(StorageError);
  });

  it('keeps its promises over random interleavings of claimers that crash, stall and race', async () => {
    type Act = 'claim' | 'complete' | 'release' | 'renew' | 'crash';
    const step = fc.record({
      advance: fc.constantFrom(0, 1, LEASE / 2, LEASE),
      acts: fc.array(
        fc.tuple(fc.nat(2), fc.constantFrom<Act>('claim', 'complete', 'release', 'renew', 'crash')),
        {
          minLength: 1,
          maxLength: 3,
        },
      ),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 8 }), async (steps) => {
        const { store, records, key } = setup();
        // What each of three workers believes it holds.
        const holds: (Claim | undefined)[] = [undefined, undefined, undefined];
        const results: Answer[] = [];
        let claims = 0;
        for (const { advance, acts } of steps) {
          clock += advance;
          await Promise.all(
            acts.map(async ([worker, act]) => {
              const held = holds[worker];
              if (act === 'claim' || !held) {
                if (held) return;
                const outcome = await records.claim(key, claimant(`w${worker}-${++claims}`));
                if (outcome.kind === 'claimed') holds[worker] = outcome.claim;
                if (outcome.kind === 'done') results.push(outcome.result);
                return;
              }
              if (act === 'crash') {
                holds[worker] = undefined;
                return;
              }
              try {
                if (act === 'renew') holds[worker] = await records.renew(held);
                else {
                  holds[worker] = undefined;
                  if (act === 'release') await records.release(held);
                  else await records.complete(held, { status: 200, body: held.owner ?? '' });
                }
              } catch (error) {
                if (!(error instanceof ClaimLostError)) throw error;
                holds[worker] = undefined;
              }
            }),
          );
        }
        assertChain(store.accepted.filter((w) => w.key === key));
        // Whoever heard done heard the one result stored.
        const done = (await records.read(key))?.record;
        for (const result of results) expect(done).toMatchObject({ state: 'done', result });
      }),
      { numRuns: 12 },
    );
  });
});

/**
 * The writes S3 accepted on one key form one chain: one create, then each write conditional on
 * the ETag of the one before (never two from the same version: exactly one taker), none after
 * a completion, and a new owner's claim only once the previous owner's lease had run out. A
 * holder's renewal with nothing new (same clock, same progress) rewrites the same bytes, hence
 * the same ETag: it changes nothing and is left out.
 */
function assertChain(all: RecordingStore['accepted']) {
  const writes = all.filter(
    (w) => !(w.condition && 'ifMatch' in w.condition && w.condition.ifMatch === w.etag),
  );
  const creates = writes.filter((w) => w.condition && 'ifNoneMatch' in w.condition);
  expect(creates).toHaveLength(1);
  const next = new Map<string, (typeof writes)[number]>();
  for (const w of writes) {
    if (!w.condition) throw new Error('an unconditional write');
    if (!('ifMatch' in w.condition)) continue;
    expect(next.has(w.condition.ifMatch), 'two writes from one version').toBe(false);
    next.set(w.condition.ifMatch, w);
  }
  let at = creates[0];
  let walked = 1;
  for (let after = at && next.get(at.etag); at && after; after = next.get(at.etag)) {
    const [before, now] = [at.value, after.value] as StoredRecord<Answer>[];
    expect(before?.state, 'a write after completion').not.toBe('done');
    if (before?.state === 'pending' && now?.state === 'pending' && now.owner !== before.owner)
      expect(Date.parse(now.claimedAt)).toBeGreaterThanOrEqual(
        Date.parse(before.claimedAt) + LEASE,
      );
    at = after;
    if (++walked > writes.length) throw new Error('the writes form a cycle');
  }
  expect(walked, 'writes off the chain').toBe(writes.length);
}
