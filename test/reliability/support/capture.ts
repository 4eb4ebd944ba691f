/**
 * Captures what the process writes to stdout and stderr (Powertools Logger writes JSON lines to
 * stdout through its own Console) while `fn` runs, without echoing it.
 */
export async function captureOutput<T>(fn: () => Promise<T>, sink: string[]): Promise<T> {
  const streams = [process.stdout, process.stderr] as const;
  const originals = streams.map((s) => s.write);
  for (const stream of streams) {
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      sink.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString());
      const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      callback?.();
      return true;
    }) as typeof stream.write;
  }
  try {
    return await fn();
  } finally {
    streams.forEach((stream, i) => {
      stream.write = originals[i] as typeof stream.write;
    });
  }
}
