import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import {
  type CredentialsSecret,
  CredentialsSecretSchema,
  SecretStore,
  secretsClient,
} from '../../lib/aws/index.js';
import { registerSecret } from '../../lib/index.js';
import * as z from '../../lib/zod.js';

/** What the connection check needs: where the service is and how to authenticate. */
export interface DoctorSettings {
  baseUrl: string;
  authUrl: string;
  credentials: CredentialsSecret;
  /** Where the credentials came from, for the report (never their values). */
  source: string;
  /** GSM keys whose operations are tried; the first one is used. */
  gsmKeys: string[];
}

/** A setting that is missing or wrong: the variable and what to do. */
export class SettingsProblem extends Error {
  constructor(
    readonly variable: string,
    readonly fix: string,
  ) {
    super(`${variable}: ${fix}`);
    this.name = 'SettingsProblem';
  }
}

const ENV_CREDENTIALS = {
  clientId: 'SKYWATCH_CLIENT_ID',
  clientSecret: 'SKYWATCH_CLIENT_SECRET',
  clientAuth: 'SKYWATCH_CLIENT_AUTH',
  username: 'SKYWATCH_USERNAME',
  password: 'SKYWATCH_PASSWORD',
  subjectToken: 'SKYWATCH_SUBJECT_TOKEN',
  scope: 'SKYWATCH_SCOPE',
} as const;

function url(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new SettingsProblem(name, 'is not set; give the URL (docs/operations.md)');
  try {
    const parsed = new URL(value);
    if (!/^https?:$/.test(parsed.protocol)) throw new Error('not http');
  } catch {
    throw new SettingsProblem(name, `is not an http(s) URL (got ${JSON.stringify(value)})`);
  }
  return value.replace(/\/+$/, '');
}

function parseCredentials(raw: unknown, where: string): CredentialsSecret {
  const parsed = z.safeParse(CredentialsSecretSchema, raw);
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]?.path[0] ?? '(root)');
    throw new SettingsProblem(where, `field ${field} is missing or invalid`);
  }
  const creds = parsed.data;
  for (const value of [creds.clientSecret, creds.password, creds.subjectToken]) {
    registerSecret(value);
  }
  return creds;
}

/**
 * Reads the settings from the environment: SKYWATCH_BASE_URL, SKYWATCH_AUTH_URL, GSM_KEYS, and
 * either the credentials themselves (SKYWATCH_CLIENT_ID, SKYWATCH_CLIENT_SECRET, …) or the
 * credentials secret the functions read (CREDENTIALS_SECRET_ARN, an ARN or a name).
 */
export async function readSettings(
  env: NodeJS.ProcessEnv = process.env,
  secrets: SecretsManagerClient = secretsClient(),
): Promise<DoctorSettings> {
  const baseUrl = url(env, 'SKYWATCH_BASE_URL');
  const authUrl = url(env, 'SKYWATCH_AUTH_URL');
  const gsmKeys = (env.GSM_KEYS ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  if (env[ENV_CREDENTIALS.clientId]) {
    const raw = Object.fromEntries(
      Object.entries(ENV_CREDENTIALS)
        .map(([field, name]) => [field, env[name]] as const)
        .filter(([, value]) => value !== undefined && value !== ''),
    );
    const credentials = parseCredentials(raw, 'SKYWATCH_CLIENT_* variables');
    return { baseUrl, authUrl, credentials, source: 'environment', gsmKeys };
  }
  const secretId = env.CREDENTIALS_SECRET_ARN;
  if (!secretId) {
    throw new SettingsProblem(
      'CREDENTIALS_SECRET_ARN',
      'is not set, nor SKYWATCH_CLIENT_ID: give the credentials secret or the credentials',
    );
  }
  let raw: unknown;
  try {
    raw = await new SecretStore(secrets).read(secretId, z.unknown(), { maxAgeMs: 0 });
  } catch (error) {
    throw new SettingsProblem(
      'CREDENTIALS_SECRET_ARN',
      `cannot be read (${(error as Error).message}); check the name, region and your AWS access`,
    );
  }
  const credentials = parseCredentials(raw, `secret ${secretId}`);
  return { baseUrl, authUrl, credentials, source: `secret ${secretId}`, gsmKeys };
}
