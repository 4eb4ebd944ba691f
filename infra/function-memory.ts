/**
 * Memory of the report fetcher, in MB. Its own module (no CDK import) because the benchmarks
 * size the measured process's V8 heap from it: the archive walk is measured as it would run in
 * the deployed function, not with the larger heap a developer machine gives Node.
 */
export const REPORT_FETCHER_MEMORY_MB = 1024;
