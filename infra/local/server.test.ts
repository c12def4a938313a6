import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { routeById } from '../../shared/api/routes';
import { toProxyEvent } from './server';

function request(rawHeaders: string[]): IncomingMessage {
  const headers = Object.fromEntries(
    Array.from({ length: rawHeaders.length / 2 }, (_, i) => [
      rawHeaders[2 * i]!.toLowerCase(),
      rawHeaders[2 * i + 1]!,
    ]),
  );
  return {
    method: 'GET',
    rawHeaders,
    headers,
    socket: { remoteAddress: '127.0.0.1' },
  } as unknown as IncomingMessage;
}

describe('the proxy event of the local server', () => {
  it('keeps query and header names such as __proto__ and constructor as plain keys', () => {
    const url = new URL('http://localhost/dev/dcc?constructor=1&__proto__=2&toString=3&toString=4');
    const event = toProxyEvent(
      request(['constructor', 'a', '__proto__', 'b']),
      url,
      '/dcc',
      routeById('listDcc'),
      {},
      Buffer.alloc(0),
      'req-1',
    );
    expect(event.queryStringParameters).toEqual({ constructor: '1', ['__proto__']: '2', toString: '4' });
    expect(Object.hasOwn(event.queryStringParameters!, '__proto__')).toBe(true);
    expect(event.multiValueQueryStringParameters?.toString).toEqual(['3', '4']);
    expect(event.headers.constructor).toBe('a');
    expect(Object.hasOwn(event.headers, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(event.multiValueHeaders, '__proto__')?.value).toEqual(['b']);
  });
});
