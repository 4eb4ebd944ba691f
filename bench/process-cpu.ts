import { readFileSync } from 'node:fs';

// Linux reports process times in clock ticks of 1/100 s (USER_HZ) on every architecture Node
// supports there.
const MS_PER_TICK = 10;

/**
 * CPU time (user + system) another process has used so far, in ms, read from /proc: the
 * archive benchmark charges the emulator's and moto's work to the run they served. NaN where
 * there is no /proc (macOS), so the figures that need it print "n/a" instead of a wrong value.
 */
export function processCpuMs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
  } catch {
    return Number.NaN;
  }
}
