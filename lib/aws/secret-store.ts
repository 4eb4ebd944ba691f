import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  type SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import * as z from '../zod.js';
import { SecretError } from './errors.js';

interface Cached {
  value: unknown;
  expiresAt: number;
}

export interface ReadOptions<T> {
  /** Longest a value may be served from memory (default 5 minutes). */
  maxAgeMs?: number;
  /** An expiry carried by the value itself (a token's); the cache never outlives it. */
  expiresAt?: (value: T) => number | undefined;
}

/**
 * JSON secrets from Secrets Manager, validated and cached per warm Lambda container. Values
 * never appear in errors: a malformed secret is reported by its field paths only.
 *
 * @example
 * const store = new SecretStore(clients.secrets);
 * const creds = await store.read(arn, CredentialsSecretSchema);
 */
export class SecretStore {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly client: SecretsManagerClient,
    private readonly now: () => number = Date.now,
  ) {}

  async read<T>(
    secretId: string,
    schema: z.core.$ZodType<T>,
    options: ReadOptions<T> = {},
  ): Promise<T> {
    const hit = this.cache.get(secretId);
    if (hit && hit.expiresAt > this.now()) return hit.value as T;
    let text: string | undefined;
    try {
      const out = await this.client.send(new GetSecretValueCommand({ SecretId: secretId }));
      text = out.SecretString;
    } catch (error) {
      throw new SecretError(`Cannot read secret ${secretId}: ${(error as Error).name}`, secretId, {
        cause: error,
      });
    }
    if (text === undefined)
      throw new SecretError(`Secret ${secretId} has no string value`, secretId);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new SecretError(`Secret ${secretId} is not JSON`, secretId);
    }
    const parsed = z.safeParse(schema, json);
    if (!parsed.success) {
      const fields = parsed.error.issues.map(
        (i) => `${i.path.join('.') || '(root)'}: ${i.message}`,
      );
      throw new SecretError(`Secret ${secretId} is malformed (${fields.join('; ')})`, secretId);
    }
    const ownExpiry = options.expiresAt?.(parsed.data);
    const maxAge = this.now() + (options.maxAgeMs ?? 300_000);
    this.cache.set(secretId, {
      value: parsed.data,
      expiresAt: ownExpiry === undefined ? maxAge : Math.min(maxAge, ownExpiry),
    });
    return parsed.data;
  }

  /** Writes a new version and serves it from the cache at once. */
  async write(secretId: string, value: unknown, maxAgeMs = 300_000): Promise<void> {
    try {
      await this.client.send(
        new PutSecretValueCommand({ SecretId: secretId, SecretString: JSON.stringify(value) }),
      );
    } catch (error) {
      throw new SecretError(`Cannot write secret ${secretId}: ${(error as Error).name}`, secretId, {
        cause: error,
      });
    }
    this.cache.set(secretId, { value, expiresAt: this.now() + maxAgeMs });
  }

  /** Forgets a cached value so the next read goes to Secrets Manager (after a 401, say). */
  invalidate(secretId: string): void {
    this.cache.delete(secretId);
  }
}
