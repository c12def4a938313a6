import { describe, expect, it, vi } from 'vitest';

/** Every command the adapter sends, answered as an empty table would (no head yet, the write succeeds). */
const sent: { command: string; input: Record<string, unknown> }[] = [];
vi.mock('../aws-clients', () => ({
  dynamo: () => ({
    send: async (c: { constructor: { name: string }; input: Record<string, unknown> }) => {
      sent.push({ command: c.constructor.name, input: c.input });
      return {};
    },
  }),
}));

const { DynamoAuditLog } = await import('./audit-log');

describe('DynamoAuditLog: add-only in code (IAM cannot require a new key: decision 205)', () => {
  it('writes an event only as a new item (attribute_not_exists), never updating or deleting one', async () => {
    const log = new DynamoAuditLog('t-audit', { now: () => new Date('2026-11-27T07:00:00Z') });
    await log.append({
      subject: 'PKG#p1',
      action: 'APPROVED',
      meaning: 'approves the package',
      actorId: 'u1',
      actorName: 'Ada',
      actorRole: 'TECHNICAL_LEADER',
    });
    const writes = sent.filter((s) => s.command !== 'GetCommand');
    expect(writes.map((w) => w.command)).toEqual(['TransactWriteCommand']);
    const items = writes[0]!.input.TransactItems as Record<string, Record<string, unknown>>[];
    // only Puts: the head (new, as nothing was there) and the event, each conditional on its key being free
    expect(items.map((i) => Object.keys(i))).toEqual([['Put'], ['Put']]);
    const [head, event] = items.map((i) => i.Put!);
    expect(head!.ConditionExpression).toBe('attribute_not_exists(pk)');
    expect(event!.ConditionExpression).toBe('attribute_not_exists(pk)');
    expect(event!.Item).toMatchObject({ pk: 'PKG#p1', seq: 1, kind: 'AUDIT' });
  });
});
