/**
 * A growing byte buffer for large JSON bodies. Writing each piece as soon as it is rendered lets
 * the piece die young: a status page kept as 1,000 entry strings until the end had them survive
 * garbage collection and be copied twice more (join, then UTF-8 encoding).
 */
export class ByteWriter {
  private buf: Buffer;
  private pos = 0;

  constructor(capacity = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(capacity);
  }

  /** Makes room for `n` more bytes. */
  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(bigger, 0, 0, this.pos);
    this.buf = bigger;
  }

  /** Appends text as UTF-8 (at most three bytes per UTF-16 unit). */
  text(s: string): void {
    this.room(s.length * 3);
    this.pos += this.buf.write(s, this.pos, 'utf8');
  }

  /** The bytes written so far (a view, not a copy). */
  bytes(): Buffer {
    return this.buf.subarray(0, this.pos);
  }
}
