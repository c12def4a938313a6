import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generatedTypes, OPENAPI_TYPES_FILE } from './openapi-types';
import { generatedRoutePaths, ROUTE_PATHS_FILE } from './route-paths';

describe('the client types generated from the OpenAPI document', () => {
  it('are current: run `npm run openapi:types` after changing a route or its contract', async () => {
    expect(await readFile(OPENAPI_TYPES_FILE, 'utf8')).toBe(await generatedTypes());
  }, 30_000);

  it('the SPA’s route paths are current: run `npm run openapi:types` after changing a route', async () => {
    expect(await readFile(ROUTE_PATHS_FILE, 'utf8')).toBe(generatedRoutePaths());
  });
});
