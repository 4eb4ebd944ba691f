import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretStore, type TokenSecret } from '../../lib/aws/index.js';
import { captureOutput } from '../reliability/support/capture.js';
import { type Product, startProduct } from '../support/product.js';

// The refresher against the emulator behaving as the real service does on tokens: a refresh
// without scope is refused with 400 invalid_request, and resource errors come in its envelope.
let product: Product;
beforeAll(async () => {
  product = await startProduct(
    { refreshRequiresScope: true, errorStyle: 'envelope' },
    { POWERTOOLS_LOG_LEVEL: 'WARN', POWERTOOLS_METRICS_DISABLED: 'false' },
  );
});
afterAll(async () => product?.close());

async function run(): Promise<{ action: string; lines: string[] }> {
  const lines: string[] = [];
  const out = await captureOutput(() => product.run<{ action: string }>('token-refresher'), lines);
  return { action: out.action, lines };
}

describe('Function: token-refresher against a service that requires scope on refresh', () => {
  it('bootstraps, then rotates through the refresh grant with scope', async () => {
    expect((await run()).action).toBe('bootstrapped');
    product.emulator.resetStats();
    for (let i = 0; i < 3; i++) expect((await run()).action).toBe('refreshed');
    expect(product.emulator.stats().tokenGrants).toMatchObject({
      refresh_token: 3,
      password: 0,
      failed: 0,
    });
  });

  it('falls back to the password grant when a refresh is refused, saves, logs and counts it', async () => {
    // Saved scopes the grant never had: the refresh asks for them and is refused invalid_scope.
    const secrets = new SecretStore(product.aws.clients.secrets);
    const saved = (await product.tokenSecret()) as TokenSecret;
    await secrets.write(product.res.tokenSecretArn, {
      ...saved,
      expiresAt: new Date(Date.now() - 1000).toISOString(),
      scopes: ['ECom.Orders'],
    });
    product.emulator.resetStats();
    const { action, lines } = await run();
    expect(action).toBe('recovered');
    expect(product.emulator.stats().tokenGrants).toMatchObject({ password: 1, failed: 1 });
    const after = await product.tokenSecret();
    expect(after.refreshToken).not.toBe(saved.refreshToken);
    const text = lines.join('');
    expect(text).toMatch(/refresh grant failed \(invalid_scope\); fell back to the password grant/);
    expect(text).toMatch(/"TokenFallbacks":1/);
    expect(text).not.toContain(saved.refreshToken);
    expect(text).not.toContain(after.refreshToken);
    // The saved pair works: the next run refreshes with scope again.
    expect((await run()).action).toBe('refreshed');
  });
});
