import { gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PageCompressor } from '../../lib/aws/page-compressor.js';

describe('Class: PageCompressor', () => {
  it('writes each page as the member zlib.gzip writes, page after page on one stream', async () => {
    const gzip = new PageCompressor(2);
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.uint8Array({ maxLength: 300_000 }), { maxLength: 6 }),
          async (pages) => {
            for (const page of pages) {
              const data = Buffer.from(page);
              const member = await gzip.compress(data);
              expect(member.equals(gzipSync(data, { level: 2 }))).toBe(true);
            }
          },
        ),
        { numRuns: 30 },
      );
    } finally {
      gzip.close();
    }
  });

  it('compresses an empty page to a valid empty member, and large text pages exactly', async () => {
    const gzip = new PageCompressor(6);
    const text = Buffer.from(`${'{"MachineID":"a1","Infected":false}\n'.repeat(60_000)}`);
    const members = [
      await gzip.compress(Buffer.alloc(0)),
      await gzip.compress(text),
      await gzip.compress(text),
    ];
    gzip.close();
    expect(members[0]?.equals(gzipSync(Buffer.alloc(0), { level: 6 }))).toBe(true);
    expect(members[2]?.equals(gzipSync(text, { level: 6 }))).toBe(true);
    expect(gunzipSync(Buffer.concat(members)).equals(Buffer.concat([text, text]))).toBe(true);
  });

  it('fails with a StorageError once its stream is closed, and says it is broken', async () => {
    const gzip = new PageCompressor(2);
    gzip.close();
    expect(gzip.broken).toBe(true);
    await expect(gzip.compress(Buffer.from('x'))).rejects.toMatchObject({ name: 'StorageError' });
  });
});
