import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../shared/api/routes';
import { SEED_USERS } from '../../shared/domain/seed-users';
import { api, login } from '../support/api';

type Doc = { openapi: string; paths: Record<string, Record<string, { operationId: string }>> };

describe('GET /dev/openapi.json over HTTP', () => {
  it('serves a valid OpenAPI 3.1 document of every route, to anyone', async () => {
    const res = await api<Doc>('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body.openapi).toMatch(/^3\.1\./);
    const result = await new Validator().validate(structuredClone(res.body) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    for (const r of ROUTES)
      expect(res.body.paths[r.path]?.[r.method.toLowerCase()]?.operationId, `${r.method} ${r.path}`).toBe(
        r.id,
      );
  });

  it('answers the same to a signed-in caller, and a wrong method with the gateway’s refusal', async () => {
    const token = await login(SEED_USERS[0]!.email);
    const signedIn = await api<Doc>('/openapi.json', { token });
    expect(signedIn.status).toBe(200);
    expect(Object.keys(signedIn.body.paths).length).toBeGreaterThan(10);
    const post = await api('/openapi.json', { method: 'POST' });
    expect(post.status).toBe(403);
  });
});
