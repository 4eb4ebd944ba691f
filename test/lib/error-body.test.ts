import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readErrorBody } from '../../lib/index.js';

describe('Function: readErrorBody', () => {
  it('reads the real service envelope, error null, into detail and requestId', () => {
    const body = readErrorBody(
      '{"statusCode":400,"requestId":"5f0c-1","error":null,"error_description":"Batch size must be between 1 and 1000","AdditionalInformation":{}}',
      'application/json; charset=utf-8',
    );
    expect(body).toMatchObject({
      form: 'envelope',
      requestId: '5f0c-1',
      code: undefined,
      summary: 'Batch size must be between 1 and 1000',
      problem: { status: 400, detail: 'Batch size must be between 1 and 1000' },
    });
  });

  it('tolerates mixed casing and takes the OAuth code of a 401 envelope', () => {
    const body = readErrorBody(
      '{"StatusCode":401,"RequestID":"r-9","Error":"invalid_token","Error_Description":"Access was denied due to invalid token.","additionalInformation":{"batchSize":["too big"]}}',
      'application/json',
    );
    expect(body).toMatchObject({
      form: 'envelope',
      requestId: 'r-9',
      code: 'invalid_token',
      summary: 'Access was denied due to invalid token.',
      problem: { errors: { batchSize: ['too big'] } },
    });
  });

  it('reads RFC 9457 problem details with traceId as the request id', () => {
    const body = readErrorBody(
      '{"type":"x","title":"Bad","status":400,"code":"invalid_parameter","detail":"batchSize must be…","traceId":"00-1-00"}',
      'application/problem+json',
    );
    expect(body).toMatchObject({
      form: 'problem',
      code: 'invalid_parameter',
      requestId: '00-1-00',
      summary: 'batchSize must be…',
    });
  });

  it('names an HTML page, an empty body and plain text for what they are', () => {
    expect(readErrorBody('<!DOCTYPE html><html>…</html>', 'text/html').summary).toMatch(
      /HTML page.*proxy/,
    );
    expect(readErrorBody('<html><body>503</body></html>', null).form).toBe('html');
    expect(readErrorBody('   ', 'application/json')).toMatchObject({
      form: 'empty',
      summary: 'an empty body',
      problem: undefined,
    });
    expect(readErrorBody('{"statusCode":5', 'application/json').form).toBe('text');
  });

  it('never throws, whatever the body and content type', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), fc.option(fc.string()), (text, type) => {
        const body = readErrorBody(text, type);
        expect(typeof body.summary).toBe('string');
        expect(body.summary.length).toBeGreaterThan(0);
      }),
    );
  });
});
