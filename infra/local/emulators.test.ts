import { describe, expect, it } from 'vitest';
import { dynamoLocalOptions } from './emulators';

describe('DynamoDB Local options (DYNAMODB_HEAP, DYNAMODB_IN_MEMORY)', () => {
  it('keeps the tests\u2019 defaults when nothing is set: 512m heap, tables in the SQLite file', () => {
    expect(dynamoLocalOptions({})).toEqual({ heap: '512m', inMemory: false });
    expect(dynamoLocalOptions({ DYNAMODB_HEAP: '', DYNAMODB_IN_MEMORY: '' })).toEqual({
      heap: '512m',
      inMemory: false,
    });
  });

  it('takes a larger heap and in-memory tables for the bench', () => {
    expect(dynamoLocalOptions({ DYNAMODB_HEAP: '4g', DYNAMODB_IN_MEMORY: '1' })).toEqual({
      heap: '4g',
      inMemory: true,
    });
    expect(dynamoLocalOptions({ DYNAMODB_HEAP: '2048M', DYNAMODB_IN_MEMORY: '0' })).toEqual({
      heap: '2048m',
      inMemory: false,
    });
  });

  it('refuses values java would misread, naming the variable', () => {
    for (const heap of ['4', '4 g', '-Xmx4g', '4gb', 'lots'])
      expect(() => dynamoLocalOptions({ DYNAMODB_HEAP: heap }), heap).toThrow(/DYNAMODB_HEAP/);
    for (const flag of ['yes', 'true', '2'])
      expect(() => dynamoLocalOptions({ DYNAMODB_IN_MEMORY: flag }), flag).toThrow(/DYNAMODB_IN_MEMORY/);
  });
});
