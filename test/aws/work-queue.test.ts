import { inspect } from 'node:util';
import {
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
  type SendMessageBatchCommand,
  type SendMessageBatchCommandOutput,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueueError, WorkQueue } from '../../lib/aws/index.js';
import type { LocalResources } from '../../scripts/local/provision.js';
import { type LocalAws, startLocalAws } from '../support/local-aws.js';

let aws: LocalAws;
let res: LocalResources;

beforeAll(async () => {
  aws = await startLocalAws();
  res = await aws.provision();
});
afterAll(async () => aws?.moto.stop());

async function receiveAll(url: string): Promise<unknown[]> {
  const bodies: unknown[] = [];
  for (;;) {
    const out = await aws.clients.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }),
    );
    const messages = out.Messages ?? [];
    if (messages.length === 0) return bodies;
    for (const m of messages) bodies.push(JSON.parse(m.Body ?? 'null'));
    await aws.clients.sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: url,
        Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle ?? '' })),
      }),
    );
  }
}

describe('Class: WorkQueue (local SQS)', () => {
  it('sends every item to the queue as one JSON message', async () => {
    // Prepare
    const queue = new WorkQueue<{ n: number }>(aws.clients.sqs, res.archiveQueueUrl);
    const items = Array.from({ length: 23 }, (_, n) => ({ n }));
    // Act
    const outcome = await queue.send(items);
    // Assess
    expect(outcome).toEqual({ sent: items, unsent: [] });
    const bodies = (await receiveAll(res.archiveQueueUrl)) as { n: number }[];
    expect(bodies.map((b) => b.n).sort((a, b) => a - b)).toEqual(items.map((i) => i.n));
  });

  it('reports an item too large for a message and sends the others', async () => {
    const queue = new WorkQueue<{ pad: string }>(aws.clients.sqs, res.archiveQueueUrl, {
      maxMessageBytes: 1024,
    });
    const big = { pad: 'x'.repeat(2000) };
    const small = { pad: 'y' };
    const outcome = await queue.send([big, small]);
    expect(outcome.sent).toEqual([small]);
    expect(outcome.unsent).toEqual([
      expect.objectContaining({ item: big, code: 'MessageTooLong', senderFault: true }),
    ]);
    expect(await receiveAll(res.archiveQueueUrl)).toEqual([small]);
  });

  it('raises QueueError naming the queue when the call itself fails', async () => {
    const url = `${res.archiveQueueUrl}-does-not-exist`;
    const queue = new WorkQueue<number>(aws.clients.sqs, url);
    const error = await queue.send([1]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueueError);
    expect(error).toMatchObject({ name: 'QueueError', queueUrl: url });
    expect((error as QueueError).message).toContain(url);
    expect(inspect(error)).toContain('cause');
  });
});

/** An SQS client that answers SendMessageBatch from a script, for the entry-level failures. */
function scriptedSqs(script: ((ids: string[]) => Partial<SendMessageBatchCommandOutput>)[]): {
  sqs: SQSClient;
  calls: string[][];
} {
  const calls: string[][] = [];
  const sqs = {
    send: async (command: SendMessageBatchCommand) => {
      const bodies = (command.input.Entries ?? []).map((e) => e.MessageBody ?? '');
      calls.push(bodies);
      const ids = (command.input.Entries ?? []).map((e) => e.Id ?? '');
      const answer = script[calls.length - 1] ?? ((all) => ({ Successful: all.map(ok) }));
      return answer(ids);
    },
  } as unknown as SQSClient;
  return { sqs, calls };
}
const ok = (Id: string) => ({ Id, MessageId: `m-${Id}`, MD5OfMessageBody: '' });

describe('Class: WorkQueue (entry failures)', () => {
  it('resends entries SQS failed on its side, waiting longer each round', async () => {
    // Prepare: entry 1 fails twice with a server-side error, then goes through.
    const serverFault = (Id: string) => ({ Id, Code: 'InternalError', SenderFault: false });
    const { sqs, calls } = scriptedSqs([
      (ids) => ({ Successful: [ok('0'), ok('2')], Failed: [serverFault(ids[1] ?? '')] }),
      (ids) => ({ Failed: [serverFault(ids[0] ?? '')] }),
    ]);
    const waits: number[] = [];
    const queue = new WorkQueue<string>(sqs, 'q', {
      sleep: async (ms) => waits.push(ms),
    });
    // Act
    const outcome = await queue.send(['a', 'b', 'c']);
    // Assess
    expect(outcome).toEqual({ sent: ['a', 'c', 'b'], unsent: [] });
    expect(calls).toEqual([['"a"', '"b"', '"c"'], ['"b"'], ['"b"']]);
    expect(waits).toEqual([100, 200]);
  });

  it('reports a sender fault at once and gives up on a server fault after maxAttempts', async () => {
    const { sqs, calls } = scriptedSqs([
      () => ({
        Failed: [
          { Id: '0', Code: 'InvalidMessageContents', Message: 'bad', SenderFault: true },
          { Id: '1', Code: 'InternalError', SenderFault: false },
        ],
      }),
      () => ({ Failed: [{ Id: '0', Code: 'InternalError', SenderFault: false }] }),
    ]);
    const queue = new WorkQueue<string>(sqs, 'q', { maxAttempts: 2, sleep: async () => 0 });
    const outcome = await queue.send(['bad', 'unlucky']);
    expect(outcome.sent).toEqual([]);
    expect(outcome.unsent).toEqual([
      { item: 'bad', code: 'InvalidMessageContents', reason: 'bad', senderFault: true },
      expect.objectContaining({ item: 'unlucky', code: 'InternalError', senderFault: false }),
    ]);
    expect(calls).toHaveLength(2);
  });

  it('sends ten entries a call', async () => {
    const { sqs, calls } = scriptedSqs([]);
    const items = Array.from({ length: 23 }, (_, n) => `item-${n}`);
    expect((await new WorkQueue<string>(sqs, 'q').send(items)).sent).toEqual(items);
    expect(calls.map((c) => c.length)).toEqual([10, 10, 3]);
  });

  it('keeps every call under the byte limit by sending fewer entries', async () => {
    const { sqs, calls } = scriptedSqs([]);
    const queue = new WorkQueue<string>(sqs, 'q', { maxMessageBytes: 1024 });
    // Ten items of ~400 bytes: ten to a call would be 4 KB, so they go two at a time.
    const items = Array.from({ length: 10 }, (_, n) => `${n}`.padEnd(400, '.'));
    expect((await queue.send(items)).sent).toEqual(items);
    expect(calls.map((c) => c.length)).toEqual([2, 2, 2, 2, 2]);
    for (const c of calls) expect(Buffer.byteLength(c.join(''))).toBeLessThanOrEqual(1024);
  });

  it('counts an entry SQS answered nothing about as failed, not sent', async () => {
    const { sqs } = scriptedSqs([() => ({ Successful: [ok('0')] })]);
    const queue = new WorkQueue<string>(sqs, 'q', { maxAttempts: 1 });
    const outcome = await queue.send(['a', 'b']);
    expect(outcome.sent).toEqual(['a']);
    expect(outcome.unsent).toEqual([expect.objectContaining({ item: 'b', code: 'NoAnswer' })]);
  });
});
