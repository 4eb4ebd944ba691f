/**
 * Encodes pages of JSON texts as NDJSON bytes (one document a line) into one buffer it keeps,
 * so a snapshot of a million records reuses a buffer instead of allocating a string and a
 * buffer per page. Nothing joins a page's texts into a page-sized string first, so a page of
 * full status entries costs less garbage collection than a concatenated string does
 * (docs/performance.md).
 *
 * The buffer handed out stays valid until the next call: the caller must be done with it
 * (gzip has consumed it) by then.
 *
 * @example
 * const ndjson = new NdjsonEncoder();
 * const member = await compressor.compress(ndjson.encodeTexts(page.entryTexts()));
 */
export class NdjsonEncoder {
  private buffer: Buffer;

  /** `initialBytes`: a page of 1,000 agent-status entries is about 3 MB, so it rarely grows. */
  constructor(initialBytes = 4 * 1024 * 1024) {
    this.buffer = Buffer.allocUnsafe(initialBytes);
  }

  /**
   * Records already serialised, each text one complete JSON document (as a service sent it).
   * Line breaks between its tokens become spaces, so each stays on one line; JSON forbids
   * them unescaped inside strings, so no value changes.
   */
  encodeTexts(texts: readonly string[]): Buffer {
    let out = this.buffer;
    let used = 0;
    for (const json of texts) {
      const text = oneLine(json);
      // UTF-8 needs at most 3 bytes per UTF-16 unit, plus the newline: grow before writing,
      // because Buffer#write truncates silently.
      const worstCase = text.length * 3 + 1;
      if (used + worstCase > out.length) {
        const grown = Buffer.allocUnsafe(Math.max(out.length * 2, used + worstCase));
        out.copy(grown, 0, 0, used);
        out = grown;
        this.buffer = grown;
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
