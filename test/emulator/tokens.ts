/** Token-endpoint helpers: client authentication, grants and self-signed subject JWTs. */
import { createHmac } from 'node:crypto';
import { expect } from 'vitest';
import type { Emulator, EmulatorClient } from '../../emulator/index.js';
import { CATALOGUE, type Json, scopeName, UA, user } from './http.js';

export const OPS = 'ops@example.com';
export const REPORTS = 'reports@example.com';

/** RFC 6749 §2.3.1: each part form-urlencoded before Base64. */
export function basicAuth(client: EmulatorClient): string {
  const enc = (s: string) => new URLSearchParams({ v: s }).toString().slice(2);
  const raw = `${enc(client.clientId)}:${enc(client.clientSecret)}`;
  return `Basic ${Buffer.from(raw).toString('base64')}`;
}

export interface TokenCall {
  status: number;
  headers: Headers;
  body: Json;
}

export interface TokenOptions {
  auth?: 'basic' | 'body' | 'both' | 'none';
  client?: EmulatorClient;
  contentType?: string;
  rawBody?: string;
}

export async function postToken(
  em: Emulator,
  fields: Record<string, string>,
  options: TokenOptions = {},
): Promise<TokenCall> {
  const client = options.client ?? em.info().client;
  const auth = options.auth ?? 'basic';
  const form = new URLSearchParams(fields);
  const headers: Record<string, string> = {
    'User-Agent': UA,
    'Content-Type': options.contentType ?? 'application/x-www-form-urlencoded',
  };
  if (auth === 'basic' || auth === 'both') headers.Authorization = basicAuth(client);
  if (auth === 'body' || auth === 'both') {
    form.set('client_id', client.clientId);
    form.set('client_secret', client.clientSecret);
  }
  const res = await fetch(em.tokenUrl, {
    method: 'POST',
    headers,
    body: options.rawBody ?? form.toString(),
  });
  const text = await res.text();
  let body: Json = {};
  try {
    body = JSON.parse(text) as Json;
  } catch {
    body = { unparsable: text };
  }
  return { status: res.status, headers: res.headers, body };
}

export function passwordFields(
  em: Emulator,
  scopes: readonly string[],
  username = OPS,
): Record<string, string> {
  const u = user(em, username);
  return {
    grant_type: 'password',
    username: u.username,
    password: u.password,
    scope: scopes.map((s) => scopeName(em, s)).join(' '),
  };
}

/** Password grant; fails the test when no token comes back. */
export async function tokenPair(
  em: Emulator,
  scopes: readonly string[],
  username = OPS,
): Promise<{ access: string; refresh: string; scope: string }> {
  const res = await postToken(em, passwordFields(em, scopes, username));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return {
    access: String(res.body.access_token),
    refresh: String(res.body.refresh_token),
    scope: String(res.body.scope),
  };
}

export async function token(
  em: Emulator,
  scopes: readonly string[] = CATALOGUE,
  username = OPS,
): Promise<string> {
  return (await tokenPair(em, scopes, username)).access;
}

/** HS256 (or `none`) compact JWT, signed with node:crypto. */
export function signJwt(claims: Json, key: string, alg: 'HS256' | 'none' = 'HS256'): string {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const head = `${b64({ alg, typ: 'JWT' })}.${b64(claims)}`;
  if (alg === 'none') return `${head}.`;
  return `${head}.${createHmac('sha256', key).update(head).digest('base64url')}`;
}
