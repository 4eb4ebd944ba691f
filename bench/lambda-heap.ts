/**
 * The V8 heap flags the AWS Lambda Node.js runtime starts a function of `memoryMb` with, so a
 * benchmark on any machine collects garbage as the deployed function does. The runtime's
 * bootstrap (`/var/runtime/bootstrap` in the nodejs images) does not leave the heap to Node's
 * own sizing from the memory it sees; it passes:
 *   new_space = memory / 10, --max-semi-space-size = new_space / 2,
 *   --max-old-space-size = memory - new_space   (integer MB arithmetic, as `expr` does)
 * Node's own sizing from the memory it sees would give a smaller heap with far smaller
 * semi-spaces, which collects more often than the deployed function does.
 */
export function lambdaHeapFlags(memoryMb: number): string[] {
  const newSpaceMb = Math.floor(memoryMb / 10);
  const semiSpaceMb = Math.floor(newSpaceMb / 2);
  return [`--max-semi-space-size=${semiSpaceMb}`, `--max-old-space-size=${memoryMb - newSpaceMb}`];
}
