import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generatedTypes, OPENAPI_TYPES_FILE } from './openapi-types';

describe('the client types generated from the OpenAPI document (issue 27)', () => {
  it('are current: run `npm run openapi:types` after changing a route or its contract', async () => {
    expect(await readFile(OPENAPI_TYPES_FILE, 'utf8')).toBe(await generatedTypes());
  }, 30_000);
});
