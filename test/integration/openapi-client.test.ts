import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_ERR } from '../../shared/domain/access-tokens';
import { api, baseUrl, uniq } from '../support/api';
import { type DirectUser, directUsers } from '../support/direct-users';
import { seededUser } from '../support/fixtures';
import type { paths } from '../support/openapi-types';

/**
 * a client generated from GET /dev/openapi.json (openapi-typescript types, committed as
 * test/support/openapi-types.ts and checked current by scripts/openapi-types.test.ts; openapi-fetch calls)
 * compiles with `npm run typecheck` and runs the pipeline flow with an access token: token, multipart
 * upload, draft with its header as code, and the refusal of a decision.
 */

let owner: DirectUser;
beforeAll(async () => {
  [owner] = (await directUsers(1, 'DESIGN_ENGINEER_DEV', 'Client Owner')) as [DirectUser];
}, 60_000);

// the stack is shared: a granted extra design engineer would join every later approver list
afterAll(async () => {
  const admin = await seededUser('admin');
  const del = await api('/admin/users', { method: 'DELETE', token: admin.token, body: [owner.id] });
  expect(del.status, JSON.stringify(del.body)).toBe(200);
});

const client = (token: string) =>
  createClient<paths>({ baseUrl: `${baseUrl()}/dev`, headers: { Authorization: `Bearer ${token}` } });

describe('a client generated from the OpenAPI document', () => {
  it('makes a token, uploads in parts, drafts the package with its header, and is refused a decision', async () => {
    const person = client(owner.token);
    const made = await person.POST('/access-tokens', {
      body: {
        name: uniq('openapi-client'),
        expiresInDays: 7,
        scopes: ['resources:upload', 'packages:draft'],
      },
    });
    expect(made.response.status).toBe(201);
    const pipeline = client(made.data!.token);

    const size = 6 * 1024 * 1024;
    const name = uniq('client-fw');
    const started = await pipeline.POST('/resources/uploads/multipart', {
      body: { name, resourceType: 'PATCH', resourceStage: 'DEV', fileName: `${name}.bin`, sizeBytes: size },
    });
    expect(started.response.status, JSON.stringify(started.error)).toBe(201);
    const { uploadId, partCount, partSizeBytes } = started.data!;
    const numbers = Array.from({ length: partCount }, (_, i) => i + 1);
    const urls = await pipeline.POST('/resources/uploads/{uploadId}/parts', {
      params: { path: { uploadId } },
      body: { partNumbers: numbers },
    });
    const parts: { partNumber: number; etag: string }[] = [];
    for (const { partNumber, url } of urls.data!.urls) {
      const bytes = Math.min(partSizeBytes, size - (partNumber - 1) * partSizeBytes);
      const put = await fetch(url, { method: 'PUT', body: new Uint8Array(bytes).fill(partNumber) });
      await put.arrayBuffer();
      parts.push({ partNumber, etag: put.headers.get('etag') ?? '' });
    }
    const completed = await pipeline.POST('/resources/uploads/{uploadId}/complete', {
      params: { path: { uploadId } },
      body: { parts },
    });
    expect(completed.response.status).toBe(202);
    let resource: string | undefined;
    for (;;) {
      const s = await pipeline.GET('/resources/uploads/{uploadId}', { params: { path: { uploadId } } });
      expect(s.data?.state).not.toBe('FAILED');
      if (s.data?.state === 'REGISTERED') {
        resource = s.data.resource;
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    const resourceId = (JSON.parse(resource ?? '{}') as { id: string }).id;

    const drafted = await pipeline.POST('/resources/{id}/generate-package', {
      params: { path: { id: resourceId } },
      body: {
        packageName: uniq('client-pkg'),
        packageType: 'DEV_UNSIGNED',
        note: 'made by a generated client',
        header: { fields: [{ name: 'Package Id', value: '0x10' }] },
      },
    });
    expect(drafted.response.status, JSON.stringify(drafted.error)).toBe(201);
    const pkg = JSON.parse(drafted.data!.package) as { id: string; status: string };
    expect(pkg.status).toBe('DRAFT');
    const header = await pipeline.GET('/packages/{id}/header', { params: { path: { id: pkg.id } } });
    const fields = (JSON.parse(header.data!.header) as { fields: { name: string; value: unknown }[] }).fields;
    expect(fields.find((f) => f.name === 'Package Id')?.value).toBe(16);

    const approve = await pipeline.POST('/packages/{id}/approve', {
      params: { path: { id: pkg.id } },
      body: { password: 'not a person' },
    });
    expect([approve.response.status, approve.error?.errorMessage]).toEqual([
      403,
      ACCESS_TOKEN_ERR.personMustSign,
    ]);
  }, 120_000);
});
