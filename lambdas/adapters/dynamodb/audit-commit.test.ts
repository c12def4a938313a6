import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type ChainedEvent, eventHash, GENESIS_HASH, verifyChain } from '../../../shared/domain/audit-chain';
import type { AuditEvent } from '../../ports/audit-log';

/**
 * DynamoDB answered in memory: GetCommand reads `heads`; TransactWriteCommand is answered by `answer`
 * (default: it commits, moving the heads it Puts). Every command sent is kept.
 */
const sent: { command: string; input: Record<string, unknown> }[] = [];
let heads = new Map<string, Record<string, unknown>>();
let answer: (items: Record<string, Record<string, unknown>>[]) => void = () => undefined;
vi.mock('../aws-clients', () => ({
  dynamo: () => ({
    send: async (c: { constructor: { name: string }; input: Record<string, unknown> }) => {
      sent.push({ command: c.constructor.name, input: c.input });
      if (c.constructor.name === 'GetCommand') {
        const key = c.input.Key as { pk: string };
        return { Item: heads.get(key.pk) };
      }
      const items = c.input.TransactItems as Record<string, Record<string, unknown>>[];
      answer(items);
      for (const i of items) {
        const item = i.Put?.Item as { pk: string; seq?: number } | undefined;
        if (item?.seq === 0) heads.set(item.pk, item);
      }
      return {};
    },
  }),
}));

const { chainItems, commitRecorded, writeRecorded } = await import('./audit-commit');

const audit = { table: () => 't-audit', clock: { now: () => new Date('2026-11-27T07:00:00Z') } };
const event = (subject: string, action: string): AuditEvent => ({
  subject,
  action,
  meaning: `${action} meaning`,
  actorId: 'u1',
  actorName: 'Ada',
  actorRole: 'TECHNICAL_LEADER',
});
const state = { Put: { TableName: 't-packages', Item: { pk: 'PKG#p1' }, ConditionExpression: '#v = :v' } };
const cancelled = (codes: string[]) =>
  new TransactionCanceledException({
    message: 'cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
const writes = () => sent.filter((s) => s.command === 'TransactWriteCommand');

beforeEach(() => {
  sent.length = 0;
  heads = new Map();
  answer = () => undefined;
});

describe('chainItems: add-only in code (IAM cannot require a new key: decision 205)', () => {
  it('writes events only as new items and heads only as Puts on the head read', async () => {
    heads.set('PKG#p1', { pk: 'PKG#p1', seq: 0, lastSeq: 4, lastHash: 'h4' });
    const items = await chainItems(audit, [
      event('PKG#p1', 'APPROVED'),
      event('USER#u2', 'ROLE_GRANTED'),
      event('PKG#p1', 'FULLY_APPROVED'),
    ]);
    // only Puts: per subject its events (conditional on a free key), then its head
    expect(items.map((i) => Object.keys(i))).toEqual([['Put'], ['Put'], ['Put'], ['Put'], ['Put']]);
    const puts = items.map((i) => i.Put!);
    expect(puts.map((p) => [p.Item?.pk, p.Item?.seq, p.ConditionExpression])).toEqual([
      ['PKG#p1', 5, 'attribute_not_exists(pk)'],
      ['PKG#p1', 6, 'attribute_not_exists(pk)'],
      ['PKG#p1', 0, 'lastSeq = :last'],
      ['USER#u2', 1, 'attribute_not_exists(pk)'],
      ['USER#u2', 0, 'attribute_not_exists(pk)'],
    ]);
    // several events of one subject: consecutive, chained to each other, one head after the last
    const [a, b, head] = puts.map((p) => p.Item as Record<string, unknown>);
    expect(a).toMatchObject({ action: 'APPROVED', prevHash: 'h4', kind: 'AUDIT' });
    expect(b?.prevHash).toBe(a?.hash);
    expect(head).toMatchObject({ lastSeq: 6, lastHash: b?.hash, kind: 'AUDIT_HEAD' });
    expect(puts[2]!.ExpressionAttributeValues).toEqual({ ':last': 4 });
  });

  it('chains a new subject from the genesis hash, verifiable as the log reads it', async () => {
    const items = await chainItems(audit, [event('DCC#d1', 'DCC_CREATED'), event('DCC#d1', 'DCC_DELETED')]);
    const stored = items
      .map((i) => i.Put!.Item as unknown as ChainedEvent & { pk: string; kind: string })
      .filter((i) => i.seq !== 0)
      .map(({ pk: _pk, kind: _k, ...rest }) => rest);
    const [first, second] = stored;
    expect(first?.prevHash).toBe(GENESIS_HASH);
    expect(first && eventHash(first)).toBe(first?.hash);
    expect(verifyChain(stored, { lastSeq: 2, lastHash: second?.hash ?? '' })).toBeNull();
  });
});

describe('commitRecorded: the change and its events in one transaction (decision 283)', () => {
  it('sends the state items first, then the chain items, in ONE TransactWriteItems', async () => {
    await writeRecorded(audit, [state], [event('PKG#p1', 'HEADER_EDITED')]);
    expect(writes()).toHaveLength(1);
    const items = writes()[0]!.input.TransactItems as Record<string, Record<string, unknown>>[];
    expect(items.map((i) => (i.Put?.Item as { pk: string } | undefined)?.pk)).toEqual([
      'PKG#p1',
      'PKG#p1',
      'PKG#p1',
    ]);
    expect(items[0]).toBe(state);
  });

  it('tries again on fresh heads when another event of the subject committed first', async () => {
    let tries = 0;
    answer = () => {
      tries += 1;
      if (tries === 1) {
        // someone else's event moved the head between this write's read and its commit
        heads.set('PKG#p1', { pk: 'PKG#p1', seq: 0, lastSeq: 1, lastHash: 'other' });
        throw cancelled(['None', 'None', 'ConditionalCheckFailed']);
      }
    };
    await writeRecorded(audit, [state], [event('PKG#p1', 'APPROVED')]);
    expect(tries).toBe(2);
    const last = writes()[1]!.input.TransactItems as Record<string, Record<string, unknown>>[];
    expect(last[1]!.Put!.Item).toMatchObject({ seq: 2, prevHash: 'other' });
  });

  it('tries again after a transaction conflict', async () => {
    let tries = 0;
    answer = () => {
      if (++tries === 1) throw cancelled(['TransactionConflict', 'None', 'None']);
    };
    await writeRecorded(audit, [state], [event('PKG#p1', 'APPROVED')]);
    expect(tries).toBe(2);
  });

  it("throws a state item's refusal to the caller, once, with its index", async () => {
    answer = () => {
      throw cancelled(['ConditionalCheckFailed', 'None', 'None']);
    };
    const e = await writeRecorded(audit, [state], [event('PKG#p1', 'APPROVED')]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TransactionCanceledException);
    expect(writes()).toHaveLength(1);
  });

  it('asks the attempt again, told why, when it retries state conflicts; `done` answers without writing', async () => {
    const told: (string | undefined)[] = [];
    answer = () => {
      throw cancelled(['ConditionalCheckFailed']);
    };
    const r = await commitRecorded(
      audit,
      async (lost) => {
        told.push(lost);
        if (told.length === 2) return { done: 'refused' };
        return { items: [state], events: [], result: 'ok' };
      },
      { retryStateConflicts: true },
    );
    expect(r).toBe('refused');
    expect(told).toEqual([undefined, 'state']);
    expect(writes()).toHaveLength(1);
  });
});
