import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSigningSecret, verifyWebhook, webhookHeaders } from '../../lib/webhooks/index.js';

/** The worked example of docs/operations.md, read from the page, must be what the code does. */
const page = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
const section = page.slice(page.indexOf('A worked example'), page.indexOf('### Rotating'));

const secret = /`(whsec_[A-Za-z0-9+/=]+)`/.exec(section)?.[1] ?? '';
const body = /```text\n(\{.*\})\n```/.exec(section)?.[1] ?? '';
const header = (name: string) => new RegExp(`^${name}: (.+)$`, 'm').exec(section)?.[1] ?? '';

describe('Docs: the worked webhook example', () => {
  it('gives the byte count, headers and signature the code makes of its body', () => {
    expect(body).not.toBe('');
    expect(section).toContain(`these ${Buffer.byteLength(body)} bytes`);
    const made = webhookHeaders([secret], {
      id: header('webhook-id'),
      timestamp: Number(header('webhook-timestamp')),
      body,
    });
    expect(made['webhook-signature']).toBe(header('webhook-signature'));
    const verified = verifyWebhook(
      (name) => header(name),
      Buffer.from(body),
      [parseSigningSecret(secret)],
      {
        nowSeconds: Number(header('webhook-timestamp')),
        toleranceSeconds: 300,
      },
    );
    expect(verified.ok).toBe(true);
  });
});
