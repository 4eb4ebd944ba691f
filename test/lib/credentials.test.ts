import { afterEach, describe, expect, it } from 'vitest';
import { credentialsTokenManager, Transport, ValidationError } from '../../lib/index.js';
import {
  closeLocalServers,
  json,
  type LocalServer,
  localServer,
  type Seen,
} from './support/local-server.js';

let server: LocalServer | undefined;
afterEach(closeLocalServers);

async function tokenServer(seen: Seen[]) {
  return localServer((req, res) => {
    seen.push(req);
    json(res, 200, { access_token: 'access-xxxxxxxx', token_type: 'bearer', expires_in: 300 });
  });
}

const credentials = { clientId: 'app', clientSecret: 'client-secret-for-unit' };

describe('Function: credentialsTokenManager', () => {
  it('asks {auth_url}/auth/token for every scope the operations use', async () => {
    // Prepare
    const seen: Seen[] = [];
    server = await tokenServer(seen);
    const tokens = credentialsTokenManager(
      new Transport({ userAgent: 'test' }),
      { baseUrl: 'https://h.example/service/', authUrl: `${server.url}/identity/` },
      { ...credentials, username: 'ops@example.com', password: 'user-password-for-unit' },
    );
    // Act
    const token = await tokens.getToken();
    // Assess
    expect(token.value).toBe('access-xxxxxxxx');
    expect(seen.map((r) => r.url)).toEqual(['/identity/auth/token']);
    expect(new URLSearchParams(seen[0]?.body).get('scope')).toBe(
      'https://h.example/service SkyStatus.GSM SkyStatus.Reporting Console.GSM ECom.Shop',
    );
  });

  it('keeps a token URL and scopes given with the credentials', async () => {
    const seen: Seen[] = [];
    server = await tokenServer(seen);
    const tokens = credentialsTokenManager(
      new Transport({ userAgent: 'test' }),
      { baseUrl: 'https://h.example/service' },
      {
        ...credentials,
        username: 'ops@example.com',
        password: 'user-password-for-unit',
        tokenUrl: `${server.url}/oauth/token`,
        scopes: ['SkyStatus.GSM'],
      },
    );
    await tokens.getToken();
    expect(seen.map((r) => r.url)).toEqual(['/oauth/token']);
    expect(new URLSearchParams(seen[0]?.body).get('scope')).toBe('SkyStatus.GSM');
  });

  it('refuses credentials with neither an auth URL nor a token URL', () => {
    const build = () =>
      credentialsTokenManager(
        new Transport({ userAgent: 'test' }),
        { baseUrl: 'https://h.example/service' },
        credentials,
      );
    expect(build).toThrow(ValidationError);
    expect(build).toThrow(/authUrl.*is required when auth holds credentials/);
  });
});
