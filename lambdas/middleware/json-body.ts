import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { BadRequestError, PayloadTooLargeError } from '../../shared/domain/errors';
import { API_ERR } from '../../shared/messages';
import type { ApiEvent } from './api-event';

/** Parses a JSON body (base64 too), refusing oversized and malformed ones before anything else runs. */
export function jsonBody(opts: {
  raw: boolean;
  maxBytes: number;
}): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    before: async (request) => {
      const event = request.event as ApiEvent;
      if (opts.raw) return;
      const raw = event.body ?? '';
      const size = event.isBase64Encoded ? Math.floor((raw.length * 3) / 4) : Buffer.byteLength(raw);
      if (size > opts.maxBytes) throw new PayloadTooLargeError(API_ERR.bodyTooLarge);
      const text = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
      if (text.trim() === '') {
        event.jsonBody = undefined;
        return;
      }
      try {
        event.jsonBody = JSON.parse(text);
      } catch {
        throw new BadRequestError(API_ERR.malformedJson);
      }
    },
  };
}
