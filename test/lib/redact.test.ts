import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AuthError,
  HttpError,
  NetworkError,
  RateLimitError,
  redact,
  redactUrl,
  redactValue,
  registerSecret,
  SchemaError,
  SkywatchError,
  TimeoutError,
  ValidationError,
} from '../../lib/index.js';

const SECRET = 'pa55-w0rd-unit-secret';

describe('Function: redact', () => {
  it('removes registered secrets, also URL-encoded', () => {
    registerSecret('a b+c/secret');
    expect(redact('x a b+c/secret y')).toBe('x [REDACTED] y');
    expect(redact(`x ${encodeURIComponent('a b+c/secret')} y`)).toBe('x [REDACTED] y');
  });

  it('removes Bearer and Basic credentials and secret-named fields', () => {
    expect(redact('Authorization: Bearer abc.DEF-123')).toBe('Authorization: Bearer [REDACTED]');
    expect(redact('basic dXNlcjpwdw==')).toBe('basic [REDACTED]');
    expect(redact('password=hunter2&x=1')).toBe('password=[REDACTED]&x=1');
    expect(redact('{"refresh_token":"r1"}')).toBe('{"refresh_token":"[REDACTED]"}');
  });

  it('leaves short strings alone when registering', () => {
    registerSecret('abc');
    expect(redact('abc')).toBe('abc');
  });

  it('redacts a 4- or 5-character secret where it stands alone, not inside words', () => {
    registerSecret('word');
    registerSecret('p@ss!');
    expect(redact('the word is out')).toBe('the [REDACTED] is out');
    expect(redact('user:word@host')).toBe('user:[REDACTED]@host');
    expect(redact('password, words and swordfish')).toBe('password, words and swordfish');
    expect(redact(`x p@ss! y ${encodeURIComponent('p@ss!')}`)).toBe('x [REDACTED] y [REDACTED]');
  });

  it('redacts any standalone short secret and keeps the words around it', () => {
    const alnum = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'.split(''));
    const short = fc
      .array(alnum, { minLength: 4, maxLength: 5 })
      .map((a) => `q${a.join('')}`.slice(0, a.length));
    fc.assert(
      fc.property(short, alnum, (secret, letter) => {
        registerSecret(secret);
        expect(redact(`a ${secret}.`)).toBe('a [REDACTED].');
        expect(redact(`${letter}${secret} ${secret}${letter}`)).toBe(
          `${letter}${secret} ${secret}${letter}`,
        );
      }),
    );
  });
});

describe('Function: redactValue', () => {
  it('blanks secret-named keys at any depth and keeps error codes', () => {
    expect(
      redactValue({ a: { Authorization: 'x', password: 'y', refresh_token: 'z', code: 'c' } }),
    ).toEqual({
      a: {
        Authorization: '[REDACTED]',
        password: '[REDACTED]',
        refresh_token: '[REDACTED]',
        code: 'c',
      },
    });
  });
});

describe('Function: redactUrl', () => {
  it('redacts secret query parameters and user info', () => {
    const out = redactUrl('https://u:p@h/x?access_token=t0k&batchSize=5&client_secret=s');
    expect(out).toBe('https://h/x?access_token=[REDACTED]&batchSize=5&client_secret=[REDACTED]');
  });
});

describe('Class: SkywatchError and subclasses', () => {
  registerSecret(SECRET);
  const cause = new Error(`socket said Bearer ${SECRET}`);
  const errors: SkywatchError[] = [
    new SkywatchError(`boom ${SECRET}`, { cause }),
    new ValidationError('password', `was ${SECRET}`, { cause }),
    new AuthError(`denied ${SECRET}`, 'invalid_grant', { description: SECRET }, { cause }),
    new HttpError(500, 'GET', `http://h/x?token=${SECRET}`, { detail: SECRET }, { cause }),
    new RateLimitError('GET', 'http://h/x', { detail: SECRET }, 1000, { cause }),
    new TimeoutError(`late ${SECRET}`, 'attempt', { cause }),
    new NetworkError(`reset ${SECRET}`, false, { cause }),
    new SchemaError(`bad ${SECRET}`, 'a.b', { cause }),
  ];

  it.each(errors.map((e) => [e.name, e]))('%s never shows the secret', (_name, error) => {
    expect(inspect(error, { depth: 10 })).not.toContain(SECRET);
    expect(JSON.stringify(error)).not.toContain(SECRET);
    expect(error.message).not.toContain(SECRET);
    expect(String(error.stack)).not.toContain(SECRET);
    expect(error.cause).toBe(cause);
  });

  it('names each class and keeps the hierarchy', () => {
    expect(errors.map((e) => e.name)).toEqual([
      'SkywatchError',
      'ValidationError',
      'AuthError',
      'HttpError',
      'RateLimitError',
      'TimeoutError',
      'NetworkError',
      'SchemaError',
    ]);
    expect(errors.every((e) => e instanceof SkywatchError && e instanceof Error)).toBe(true);
    expect(errors[4]).toBeInstanceOf(HttpError);
    expect(errors[2]?.toJSON()).toMatchObject({
      code: 'invalid_grant',
      details: { description: '[REDACTED]' },
    });
    expect(errors[3]?.toJSON()).toMatchObject({ status: 500, problem: { detail: '[REDACTED]' } });
    expect(new HttpError(404, 'GET', 'http://h', { code: 'not_found' }).toJSON()).toMatchObject({
      problem: { code: 'not_found' },
    });
    expect(inspect(errors[3])).toMatch(/^HttpError: GET http:\/\/h\/x\?token=\[REDACTED\]/);
  });

  it('keeps the path and query of an HttpError in path and the whole URL in url', () => {
    const error = new HttpError(
      503,
      'GET',
      `http://user:pw@h:8080/service/api/x?token=${SECRET}&batchSize=5`,
      undefined,
    );
    expect(error.path).toBe('/service/api/x?token=[REDACTED]&batchSize=5');
    expect(error.url).toBe('http://h:8080/service/api/x?token=[REDACTED]&batchSize=5');
    expect(error.toJSON()).toMatchObject({ path: error.path, url: error.url });
    expect(new HttpError(404, 'GET', 'http://h', undefined).path).toBe('/');
    expect(new HttpError(404, 'GET', 'not a url', undefined).path).toBe('not a url');
  });
});
