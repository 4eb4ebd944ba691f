/**
 * The V8 heap flags the AWS Lambda Node.js runtime starts a function of `memoryMb` with, so a
 * benchmark on any machine collects garbage as the deployed function does. The runtime's
 * bootstrap (`/var/runtime/bootstrap` in the nodejs images) does not leave the heap to Node's
 * own sizing from the memory it sees; it passes:
 *   new_space = memory / 10, --max-semi-space-size = new_space / 2,
 *   --max-old-space-size = memory - new_space   (integer MB arithmetic, as `expr` does)
 * For 1,024 MB that is a 51 MB semi-space (V8 rounds it up to 64 MiB) and a 922 MB old
 * generation: `v8.getHeapStatistics().heap_size_limit` is 1,114 MiB with these flags.
 * Node's own sizing under a 1 GiB memory limit would give 524 MiB with 4 MiB semi-spaces,
 * which collects several times as often and makes a download-only walk twice as costly.
 */
export function lambdaHeapFlags(memoryMb: number): string[] {
  const newSpaceMb = Math.floor(memoryMb / 10);
  const semiSpaceMb = Math.floor(newSpaceMb / 2);
  return [`--max-semi-space-size=${semiSpaceMb}`, `--max-old-space-size=${memoryMb - newSpaceMb}`];
}
