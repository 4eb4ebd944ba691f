import { constants, createGzip, type Gzip } from 'node:zlib';
import { StorageError } from './errors.js';

/** A page's gzip output comes back from the thread pool in few chunks, each a hop. */
const GZIP_CHUNK = 512 * 1024;

/**
 * Compresses pages one at a time, each into a gzip member of its own, byte for byte as
 * `zlib.gzip` writes it, on one zlib stream finished and reset between pages. `zlib.gzip` sets
 * up a fresh deflate state for every call, on the main thread and as external memory that
 * V8 counts towards its next collection; a walk compresses thousands of pages.
 *
 * @example
 * const gzip = new PageCompressor(2);
 * const member = await gzip.compress(ndjson);
 */
export class PageCompressor {
  private readonly stream: Gzip;
  private chunks: Buffer[] = [];
  private pending: ((error: Error) => void) | undefined;
  private failed: Error | undefined;

  constructor(readonly level: number) {
    this.stream = createGzip({ level, chunkSize: GZIP_CHUNK });
    this.stream.on('data', (chunk: Buffer) => this.chunks.push(chunk));
    const fail = (error: Error) => {
      this.failed ??= error;
      this.pending?.(this.failed);
    };
    this.stream.on('error', fail);
    // A stream that closed never calls a flush back: the page waiting on it fails instead.
    this.stream.on('close', () => fail(new Error('the zlib stream closed')));
  }

  /** One gzip member holding `data`. One call at a time: await each. */
  compress(data: Buffer): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      if (this.failed) return reject(this.failed);
      this.pending = reject;
      this.stream.write(data);
      this.stream.flush(constants.Z_FINISH, () => {
        this.pending = undefined;
        if (this.failed) return reject(this.failed);
        const [only] = this.chunks;
        const member = this.chunks.length === 1 && only ? only : Buffer.concat(this.chunks);
        this.chunks = [];
        try {
          // ZlibBase#reset: @types/node declares it for Deflate and Inflate only, but Gzip is
          // deflate with a header and has it too (test/lib/page-compressor.test.ts).
          (this.stream as Gzip & { reset(): void }).reset();
        } catch (error) {
          this.failed = error as Error;
        }
        resolve(member);
      });
    }).catch((error: unknown) => {
      throw new StorageError('Cannot compress a page', { cause: error });
    }) as Promise<Buffer>;
  }

  /** True once a failure has made it unusable. */
  get broken(): boolean {
    return this.failed !== undefined;
  }

  /** Frees zlib's memory now rather than at collection. */
  close(): void {
    this.failed ??= new Error('the compressor was closed');
    this.stream.close();
  }
}
