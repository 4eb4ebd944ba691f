/**
 * Raw-HTTP helpers for the emulator conformance suite. Deliberately independent of `lib/`: the
 * emulator is checked against the contract (spec + docs/service-choices.md) with plain fetch.
 */
import { request as httpRequest } from 'node:http';
import { expect } from 'vitest';
import {
  type Emulator,
  type EmulatorOptions,
  type EmulatorUser,
  startEmulator,
} from '../../emulator/index.js';

export type { Emulator } from '../../emulator/index.js';

export const NOW = '2026-06-15T12:00:00Z';
export const UA = 'SkywatchConformance/1.0 (+https://github.com/skywatch) node/20';
export const API_VERSION = '1.0.26271.1';

export const KEYCODE_RE = /^[A-Z0-9]{4}(-[A-Z0-9]{4}){4}$/;
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const ISO_UTC_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,7})?Z$/;
/** The documented `YYYY-MM-DDT00:00:00Z` form, exactly. */
export const MIDNIGHT_RE = /^\d{4}-\d{2}-\d{2}T00:00:00Z$/;

export const GROUPS = [
  'BasicInfo',
  'ExtendedInfo',
  'TimesAndStats',
  'Scheduling',
  'EnabledFeatures',
  'SystemAnalyzer',
  'OSAndVersions',
] as const;

/** Scope catalogue of docs/service-choices.md; `{base_url}` is replaced by the base URL. */
export const CATALOGUE = [
  '{base_url}',
  'SkyStatus.GSM',
  'SkyStatus.Reporting',
  'Console.GSM',
  'ECom.Shop',
  'ECom.Orders',
  'ECom.Licenses',
  'SecureCloud.Usage',
] as const;

export type Json = Record<string, unknown>;

/** Starts an emulator with the clock frozen at NOW (unless the options say otherwise). */
export function start(options: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({ now: NOW, ...options });
}

export function scopeName(em: Emulator, scope: string): string {
  return scope === '{base_url}' ? em.baseUrl : scope;
}

export function user(em: Emulator, username: string): EmulatorUser {
  const found = em.info().users.find((u) => u.username === username);
  if (!found) throw new Error(`user ${username} missing from info()`);
  return found;
}

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface CallOptions {
  token?: string;
  query?: Query;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  accept?: string;
}

export function url(em: Emulator, path: string, query: CallOptions['query'] = {}): string {
  const u = new URL(`${em.baseUrl}${path}`);
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== null) u.searchParams.set(k, String(v));
  }
  return u.toString();
}

export function call(em: Emulator, path: string, options: CallOptions = {}): Promise<Response> {
  return callUrl(url(em, path, options.query), options);
}

export function callUrl(target: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { 'User-Agent': UA, ...options.headers };
  if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
  if (options.accept !== undefined) headers.Accept = options.accept;
  return fetch(target, { method: options.method ?? 'GET', headers, body: options.body });
}

/** GET expecting 200 JSON; returns the parsed body. */
export async function getOk(em: Emulator, path: string, options: CallOptions = {}): Promise<Json> {
  const res = await call(em, path, options);
  const text = await res.text();
  expect(res.status, `${path} → ${text.slice(0, 400)}`).toBe(200);
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  expect(res.headers.get('api-version')).toBe(API_VERSION);
  return JSON.parse(text) as Json;
}

/**
 * Asserts an RFC 9457 problem of the documented shape; when `param` is given, `errors` must name
 * it. Returns the body.
 */
export async function expectProblem(
  res: Response,
  status: number,
  code: string,
  param?: string,
): Promise<Json> {
  const text = await res.text();
  expect(res.status, text.slice(0, 400)).toBe(status);
  expect(res.headers.get('content-type') ?? '').toMatch(/^application\/problem\+json/);
  expect(res.headers.get('api-version')).toBe(API_VERSION);
  const body = JSON.parse(text) as Json;
  expect(body).toMatchObject({ status, code });
  expect(typeof body.type).toBe('string');
  expect(typeof body.title).toBe('string');
  expect(typeof body.detail).toBe('string');
  expect(typeof body.traceId).toBe('string');
  if (status === 400) {
    expect(body.errors).toBeTypeOf('object');
    for (const messages of Object.values(body.errors as Json)) {
      expect(Array.isArray(messages)).toBe(true);
      for (const m of messages as unknown[]) expect(typeof m).toBe('string');
    }
  }
  if (param !== undefined) {
    expect(Object.keys((body.errors ?? {}) as Json), JSON.stringify(body)).toContain(param);
  }
  return body;
}

/** A GET over node:http, which (unlike fetch) sends no User-Agent unless told. */
export function rawGet(
  target: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(target, { method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          headers: res.headers,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The fixture: first GSM, the site with most endpoints, and a site of another GSM. */
export function fixture(em: Emulator) {
  const info = em.info();
  const gsm = info.gsms[0];
  const other = info.gsms[1];
  if (!gsm || !other) throw new Error('the suite needs at least two GSMs');
  const sites = [...gsm.sites].sort((a, b) => b.endpointCount - a.endpointCount);
  const site = sites[0];
  const small = sites[sites.length - 1];
  const foreign = other.sites[0];
  if (!site || !small || !foreign) throw new Error('the suite needs sites');
  return { info, gsm, other, site, small, foreign };
}
