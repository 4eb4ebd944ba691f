/**
 * The V8 heap Node 20 gives itself in a function of `memoryMb`, as flags for a process on any
 * machine. Node sizes the heap from the memory it sees: the old generation gets half of it
 * (capped at 4 GiB), and each young semi-space old/128 rounded up to a power of two (old/256
 * at 256 MiB and below), capped at 16 MiB. Checked on this project's machines by running Node
 * under a memory cgroup of each size: `v8.getHeapStatistics().heap_size_limit` was 259 MiB at
 * 512 MB, 524 at 1,024 (old 512 + 3 × semi 4), 1,048 at 2,048 and 1,552 at 3,008; these flags
 * reproduce 524 for 1,024. A developer machine with 24 GiB gets a 4 GiB old generation and
 * 16 MiB semi-spaces instead, which collects far less often than the deployed function does.
 */
export function lambdaHeapFlags(memoryMb: number): string[] {
  const oldMb = Math.min(4096, Math.floor(memoryMb / 2));
  const ratio = oldMb <= 256 ? 256 : 128;
  const semiMb = Math.min(16, 2 ** Math.ceil(Math.log2(Math.max(1, oldMb / ratio))));
  return [`--max-old-space-size=${oldMb}`, `--max-semi-space-size=${semiMb}`];
}
