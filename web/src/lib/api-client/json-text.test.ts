import { packageSchema, resourceSchema } from '@shared/api/contracts/records';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PACKAGES, RESOURCES } from '@/testing/mocks/fixtures';
import { parseJsonText, readAnswer, UnreadableAnswer } from './api-client';

describe('JSON-text answers are parsed with their schemas (decision 238)', () => {
  it('reads a package and a resource list as the server sends them', () => {
    const pkg = structuredClone(PACKAGES[0]!);
    expect(parseJsonText(JSON.stringify(pkg), packageSchema, null)).toEqual(pkg);
    const list = structuredClone(RESOURCES);
    expect(parseJsonText(JSON.stringify(list), z.array(resourceSchema), [])).toEqual(list);
    expect(parseJsonText(undefined, z.array(resourceSchema), [])).toEqual([]);
  });

  it('refuses text that is not JSON, or a record missing a field or with a wrong enum', () => {
    const pkg = structuredClone(PACKAGES[0]!);
    const { approvers: _, ...noApprovers } = pkg;
    expect(() => parseJsonText('{not json', packageSchema, null)).toThrow(UnreadableAnswer);
    expect(() => parseJsonText(JSON.stringify(noApprovers), packageSchema, null)).toThrow(UnreadableAnswer);
    expect(() => parseJsonText(JSON.stringify({ ...pkg, status: 'LOST' }), packageSchema, null)).toThrow(
      UnreadableAnswer,
    );
  });

  it('turns an unreadable answer into a failed result (502), never a cast value', () => {
    const ok = { ok: true as const, status: 200, data: { packages: '[{"id":1}]' } };
    const read = readAnswer(ok, (d) => parseJsonText(d.packages, z.array(packageSchema), []), 'all');
    expect(read).toEqual({
      ok: false,
      status: 502,
      error: { errorMessage: 'The answer the server sent cannot be read' },
    });
  });
});
