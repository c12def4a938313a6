import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RESOURCE_ERR } from '../../shared/domain/resource-rules';
import type { ApiEvent } from './http';
import { readMultipart } from './multipart';

/** The event API Gateway makes of a browser's FormData POST (multipart is a binary media type). */
async function eventOf(form: FormData): Promise<ApiEvent> {
  const req = new Request('http://x/', { method: 'POST', body: form });
  const body = Buffer.from(await req.arrayBuffer());
  return {
    headers: { 'Content-Type': req.headers.get('content-type')! },
    body: body.toString('base64'),
    isBase64Encoded: true,
  } as unknown as ApiEvent;
}

const limits = { resourceFile: 8, metadataFile: 100 };

describe('readMultipart', () => {
  it('reads files with their name, size and SHA-256, and text fields', async () => {
    const form = new FormData();
    form.append('name', 'ignored here');
    form.append('resourceFile', new Blob([Buffer.from('abc')]), 'fw.bin');
    const r = await readMultipart(await eventOf(form), limits);
    expect(r.fields).toEqual({ name: 'ignored here' });
    expect(r.files.resourceFile).toMatchObject({
      fileName: 'fw.bin',
      sizeBytes: 3,
      sha256: createHash('sha256').update('abc').digest('hex'),
    });
    expect(Buffer.from(r.files.resourceFile!.bytes).toString()).toBe('abc');
  });

  it('counts a part above its limit to the end but keeps only the limit', async () => {
    const form = new FormData();
    form.append('resourceFile', new Blob([Buffer.alloc(20, 1)]), 'fw.bin');
    const r = await readMultipart(await eventOf(form), limits);
    expect(r.files.resourceFile!.sizeBytes).toBe(20);
    expect(r.files.resourceFile!.bytes.length).toBe(8);
  });

  it('refuses a second file in one field and unknown file fields', async () => {
    const twice = new FormData();
    twice.append('resourceFile', new Blob(['a']), 'a.bin');
    twice.append('resourceFile', new Blob(['b']), 'b.bin');
    await expect(readMultipart(await eventOf(twice), limits)).rejects.toMatchObject({
      statusCode: 400,
      message: RESOURCE_ERR.duplicateField('resourceFile'),
    });
    const other = new FormData();
    other.append('file', new Blob(['a']), 'a.bin');
    await expect(readMultipart(await eventOf(other), limits)).rejects.toMatchObject({ statusCode: 400 });
  });

  it('refuses a body that is not multipart/form-data', async () => {
    const event = { headers: { 'content-type': 'application/json' }, body: '{}' } as unknown as ApiEvent;
    await expect(readMultipart(event, limits)).rejects.toMatchObject({
      statusCode: 400,
      message: RESOURCE_ERR.notMultipart,
    });
  });

  it('refuses a truncated multipart body', async () => {
    const event = {
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      body: Buffer.from(
        '--xyz\r\nContent-Disposition: form-data; name="resourceFile"; filename="a.bin"\r\n\r\nab',
      ).toString('base64'),
      isBase64Encoded: true,
    } as unknown as ApiEvent;
    await expect(readMultipart(event, limits)).rejects.toMatchObject({ statusCode: 400 });
  });
});
