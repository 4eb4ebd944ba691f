/**
 * Encodes batches of records as NDJSON bytes (one JSON document a line) into two buffers used
 * in turn, so a snapshot of a million records allocates two buffers instead of a string and a
 * buffer per page. Each record's JSON string dies young; nothing joins them into a page-sized
 * string first, so a page of full status entries costs less garbage collection than a
 * concatenated string does (docs/performance.md).
 *
 * The buffer handed out by `encode` or `encodeTexts` stays valid until the next-but-one call:
 * the caller must be done with it (gzip has consumed it) by then.
 *
 * @example
 * const ndjson = new NdjsonEncoder();
 * gzip.write(ndjson.encode(page.entries), callback);
 */
export class NdjsonEncoder {
  private readonly buffers: [Buffer, Buffer];
  private turn: 0 | 1 = 0;

  constructor(initialBytes = 4 * 1024 * 1024) {
    this.buffers = [Buffer.allocUnsafe(initialBytes), Buffer.allocUnsafe(initialBytes)];
  }

  /** Records serialised with `JSON.stringify`, a line each. */
  encode(records: readonly unknown[]): Buffer {
    return this.write(records.length, (i) => JSON.stringify(records[i]));
  }

  /**
   * Records already serialised, each text one complete JSON document (as a service sent it).
   * Line breaks between its tokens become spaces, so each stays on one line; JSON forbids
   * them unescaped inside strings, so no value changes.
   *
   * @example
   * gzip.write(ndjson.encodeTexts(page.entryTexts()), callback);
   */
  encodeTexts(texts: readonly string[]): Buffer {
    return this.write(texts.length, (i) => oneLine(texts[i] ?? 'null'));
  }

  private write(count: number, json: (index: number) => string): Buffer {
    const turn = this.turn;
    this.turn = turn === 0 ? 1 : 0;
    let out = this.buffers[turn];
    let used = 0;
    for (let i = 0; i < count; i++) {
      const text = json(i);
      // UTF-8 needs at most 3 bytes per UTF-16 unit, plus the newline: grow before writing,
      // because Buffer#write truncates silently.
      const worstCase = text.length * 3 + 1;
      if (used + worstCase > out.length) {
        const grown = Buffer.allocUnsafe(Math.max(out.length * 2, used + worstCase));
        out.copy(grown, 0, 0, used);
        out = grown;
        this.buffers[turn] = grown;
      }
      used += out.write(text, used);
      out[used++] = 0x0a;
    }
    return out.subarray(0, used);
  }
}

function oneLine(json: string): string {
  return json.includes('\n') || json.includes('\r') ? json.replace(/[\r\n]/g, ' ') : json;
}
