import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from './openapi';
import { ROUTES } from './routes';

type Operation = {
  operationId: string;
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }>;
  requestBody?: unknown;
  parameters: { name: string; in: string; required: boolean }[];
};
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: { Error: { required?: string[]; properties: Record<string, { type: string }> } } };
};

describe('the OpenAPI document (GET /dev/openapi.json)', () => {
  const document = openApiDocument();
  const doc = document as unknown as Doc;

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toMatch(/^3\.1\./);
  });

  it('has one operation for every route table row, and nothing else', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(operations.sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.path} ${r.id}`).sort());
  });

  it('answers every refusal with the errorMessage shape', () => {
    const error = doc.components.schemas.Error;
    expect(error.required).toEqual(['errorMessage']);
    expect(error.properties.errorMessage).toMatchObject({ type: 'string' });
    for (const r of ROUTES) {
      const op = doc.paths[r.path]![r.method.toLowerCase()]!;
      expect(op.responses['4XX'], r.id).toEqual({ $ref: '#/components/responses/Error' });
      expect(op.responses['5XX'], r.id).toEqual({ $ref: '#/components/responses/Error' });
    }
  });

  it('describes the request of a row from its contract', () => {
    const login = doc.paths['/user/login']!.post!;
    expect(JSON.stringify(login.requestBody)).toContain('"password"');
    const list = doc.paths['/{stage}/packages']!.get!;
    expect(list.parameters.map((p) => `${p.in}:${p.name}:${p.required}`)).toEqual([
      'path:stage:true',
      'query:limit:false',
      'query:cursor:false',
      'query:offset:false',
      'query:search:false',
      'query:sort:false',
      'query:order:false',
      'query:drafts:false',
    ]);
    expect(Object.keys(doc.paths['/dcc']!.post!.responses)).toContain('201');
    expect(JSON.stringify(doc.paths['/resources/patch/{stage}']!.post!.requestBody)).toContain(
      'multipart/form-data',
    );
  });
});
