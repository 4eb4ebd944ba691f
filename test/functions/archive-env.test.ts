import { describe, expect, it } from 'vitest';
import { ArchiveEnv, readEnv } from '../../functions/shared/env.js';
import { ConfigError, DEFAULT_GZIP_LEVEL } from '../../lib/aws/index.js';

describe('Schema: ArchiveEnv', () => {
  it('defaults the gzip level and reads one that is set', () => {
    expect(readEnv(ArchiveEnv, { REPORT_BUCKET: 'archive' }).ARCHIVE_GZIP_LEVEL).toBe(
      DEFAULT_GZIP_LEVEL,
    );
    expect(
      readEnv(ArchiveEnv, { REPORT_BUCKET: 'archive', ARCHIVE_GZIP_LEVEL: '6' }).ARCHIVE_GZIP_LEVEL,
    ).toBe(6);
  });

  it('fails the cold start naming ARCHIVE_GZIP_LEVEL when it is not a zlib level', () => {
    for (const value of ['0', '10', '2.5', 'fast']) {
      const read = () =>
        readEnv(ArchiveEnv, { REPORT_BUCKET: 'archive', ARCHIVE_GZIP_LEVEL: value });
      expect(read, value).toThrow(ConfigError);
      expect(read, value).toThrow(/ARCHIVE_GZIP_LEVEL/);
    }
  });
});
