import { createHash } from 'node:crypto';
import busboy from 'busboy';
import { BadRequestError } from '../../shared/domain/errors';
import { RESOURCE_ERR } from '../../shared/domain/resource-rules';
import type { ApiEvent } from './api-event';

export interface MultipartFile {
  fileName: string;
  /** the bytes kept: at most the field's limit (reading stops keeping bytes beyond it) */
  bytes: Uint8Array;
  /** the part's full size, also when it was above the limit */
  sizeBytes: number;
  /** hex SHA-256, computed while the part streamed in */
  sha256: string;
}

export interface Multipart {
  files: Partial<Record<string, MultipartFile>>;
  fields: Record<string, string>;
}

function header(event: ApiEvent, name: string): string | undefined {
  return Object.entries(event.headers ?? {}).find(([k]) => k.toLowerCase() === name)?.[1] ?? undefined;
}

/**
 * Reads a multipart/form-data body (API Gateway passes it base64-encoded as a binary media type).
 * `limits` names the accepted file fields and the bytes kept of each; a part above its limit is still
 * counted to the end so the caller can say how big it was, without keeping it. Text fields are kept.
 */
export function readMultipart(event: ApiEvent, limits: Record<string, number>): Promise<Multipart> {
  const contentType = header(event, 'content-type');
  if (!contentType || !/^multipart\/form-data/i.test(contentType.trim()) || !event.body) {
    return Promise.reject(new BadRequestError(RESOURCE_ERR.notMultipart));
  }
  const body = Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        limits: { files: 4, fields: 20, parts: 24, fieldSize: 64 * 1024 },
      });
    } catch {
      reject(new BadRequestError(RESOURCE_ERR.malformedMultipart));
      return;
    }
    const files: Multipart['files'] = {};
    // seen on the part's start: a file's 'end' (where it lands in `files`) may come after the next part
    const seen = new Set<string>();
    const fields: Record<string, string> = {};
    // the first problem wins; parsing carries on to the end so busboy can finish cleanly
    let problem: Error | undefined;
    const fail = (e: Error) => {
      problem ??= e;
    };

    parser.on('file', (field, stream, info) => {
      const limit = limits[field];
      const duplicate = seen.has(field);
      seen.add(field);
      if (limit === undefined) fail(new BadRequestError(RESOURCE_ERR.unexpectedFile(field)));
      else if (duplicate) fail(new BadRequestError(RESOURCE_ERR.duplicateField(field)));
      // a truncated form errors the part's stream as well as the parser: answered once, as malformed
      stream.on('error', () => fail(new BadRequestError(RESOURCE_ERR.malformedMultipart)));
      if (limit === undefined || duplicate) {
        stream.resume();
        return;
      }
      const hash = createHash('sha256');
      const chunks: Buffer[] = [];
      let kept = 0;
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        hash.update(chunk);
        if (kept < limit) {
          const part = chunk.subarray(0, limit - kept);
          chunks.push(part);
          kept += part.length;
        }
      });
      stream.on('end', () => {
        files[field] = {
          fileName: info.filename ?? '',
          bytes: Buffer.concat(chunks),
          sizeBytes: size,
          sha256: hash.digest('hex'),
        };
      });
    });
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('filesLimit', () => fail(new BadRequestError(RESOURCE_ERR.malformedMultipart)));
    parser.on('partsLimit', () => fail(new BadRequestError(RESOURCE_ERR.malformedMultipart)));
    parser.on('error', () => reject(problem ?? new BadRequestError(RESOURCE_ERR.malformedMultipart)));
    parser.on('close', () => (problem ? reject(problem) : resolve({ files, fields })));
    parser.end(body);
  });
}
