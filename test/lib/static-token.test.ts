import { describe, expect, it } from 'vitest';
import { StaticTokenSource, TimeoutError } from '../../lib/index.js';

describe('Class: StaticTokenSource', () => {
  it('loads once, shares the load, and reloads after invalidate', async () => {
    let loads = 0;
    const source = new StaticTokenSource(async () => `static-token-${++loads}`, ['SkyStatus.GSM']);
    const all = await Promise.all([source.getToken(), source.getToken()]);
    expect(all.map((t) => t.value)).toEqual(['static-token-1', 'static-token-1']);
    expect(all[0]?.scopes).toEqual(['SkyStatus.GSM']);
    source.invalidate('static-token-1');
    expect((await source.getToken()).value).toBe('static-token-2');
  });

  it('stops waiting for a slow load at maxWaitMs', async () => {
    const source = new StaticTokenSource(
      () => new Promise<string>((resolve) => setTimeout(() => resolve('slow-token-1'), 300)),
    );
    await expect(source.getToken({ maxWaitMs: 20 })).rejects.toBeInstanceOf(TimeoutError);
    expect((await source.getToken()).value).toBe('slow-token-1');
  });
});
