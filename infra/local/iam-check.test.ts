import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { routeById } from '../../shared/api/routes';
import { bucketEnv, tableEnv } from '../../shared/api/runtime';
import { ASYNC_WORKERS, WORKERS } from '../../shared/api/workers';
import {
  checkDynamo,
  checkMail,
  checkS3,
  installLocalIamChecks,
  routeScope,
  workerGrantee,
} from './iam-check';

/** The local stand-in for IAM refuses what the route's role would refuse in AWS (rules only, no clients). */
beforeAll(() => {
  for (const t of ['users', 'resources', 'packages', 'dcc', 'audit', 'outbox'])
    process.env[tableEnv(t as never)] = `t-${t}`;
  for (const b of ['resources', 'artefacts', 'audit']) process.env[bucketEnv(b as never)] = `b-${b}`;
  // the clients the handlers use, pointed at a closed port: a call that passes the check fails to connect
  Object.assign(process.env, {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'x',
    AWS_SECRET_ACCESS_KEY: 'x',
    AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:9',
  });
});

const denied = (fn: () => void) => expect(fn).toThrow(/Local IAM check: route/);

describe('local IAM check', () => {
  it('lets a route use the tables of its row, and refuses the others', () => {
    const listDcc = routeById('listDcc');
    expect(() => checkDynamo(listDcc, 'QueryCommand', { TableName: 't-dcc' })).not.toThrow();
    denied(() => checkDynamo(listDcc, 'QueryCommand', { TableName: 't-resources' }));
    // no role is granted Scan, even on its own tables
    denied(() => checkDynamo(routeById('createDcc'), 'ScanCommand', { TableName: 't-dcc' }));
  });

  it('keeps GET rows read-only', () => {
    const listDcc = routeById('listDcc');
    denied(() => checkDynamo(listDcc, 'PutItemCommand', { TableName: 't-dcc' }));
    denied(() =>
      checkDynamo(listDcc, 'TransactWriteItemsCommand', {
        TransactItems: [{ Update: { TableName: 't-dcc' } }],
      }),
    );
  });

  it('lets a route append to the audit table but never change or delete an event', () => {
    const approve = routeById('approvePackage');
    expect(approve.uses.tables).toContain('audit');
    expect(() => checkDynamo(approve, 'PutItemCommand', { TableName: 't-audit' })).not.toThrow();
    expect(() =>
      checkDynamo(approve, 'TransactWriteItemsCommand', {
        TransactItems: [{ Put: { TableName: 't-audit' } }, { Update: { TableName: 't-packages' } }],
      }),
    ).not.toThrow();
    denied(() => checkDynamo(approve, 'UpdateItemCommand', { TableName: 't-audit' }));
    denied(() => checkDynamo(approve, 'DeleteItemCommand', { TableName: 't-audit' }));
    denied(() =>
      checkDynamo(approve, 'BatchWriteItemCommand', { RequestItems: { 't-audit': [], 't-packages': [] } }),
    );
  });

  it('lets only the rows that change accounts or take a signature write the users table', () => {
    // every guarded row reads users for its gate; a workflow step that takes no signature may not change an
    // account (a signed one counts a wrong password as a failed sign-in there: decision 205)
    const retry = routeById('retryGeneration');
    expect(() => checkDynamo(retry, 'GetItemCommand', { TableName: 't-users' })).not.toThrow();
    denied(() => checkDynamo(retry, 'UpdateItemCommand', { TableName: 't-users' }));
    denied(() =>
      checkDynamo(retry, 'TransactWriteItemsCommand', {
        TransactItems: [{ Put: { TableName: 't-users' } }, { Update: { TableName: 't-packages' } }],
      }),
    );
    denied(() => checkDynamo(routeById('createDcc'), 'UpdateItemCommand', { TableName: 't-users' }));
    // a row an access token may call counts the token's quota and last use there (decision 257)
    expect(() =>
      checkDynamo(routeById('attachDcc'), 'UpdateItemCommand', { TableName: 't-users' }),
    ).not.toThrow();
    for (const id of [
      'login',
      'logout',
      'register',
      'resetPassword',
      'adminDeleteUsers',
      'approvePackage',
      'rejectPackage',
    ] as const)
      expect(
        () => checkDynamo(routeById(id), 'UpdateItemCommand', { TableName: 't-users' }),
        id,
      ).not.toThrow();
    // updateAccount reads packages (a pending decision blocks a role change) but never writes them
    denied(() => checkDynamo(routeById('updateAccount'), 'UpdateItemCommand', { TableName: 't-packages' }));
  });

  it('keeps workers read-only on the tables they only read', () => {
    const gen = ASYNC_WORKERS.find((w) => w.id === 'generateArtefact')!;
    const grantee = { id: `worker:${gen.id}`, uses: gen.uses };
    expect(() => checkDynamo(grantee, 'GetItemCommand', { TableName: 't-resources' })).not.toThrow();
    denied(() => checkDynamo(grantee, 'UpdateItemCommand', { TableName: 't-resources' }));
    denied(() => checkDynamo(grantee, 'PutItemCommand', { TableName: 't-dcc' }));
    expect(() => checkDynamo(grantee, 'UpdateItemCommand', { TableName: 't-packages' })).not.toThrow();
  });

  it('checks every table of a transaction and of a batch', () => {
    const createDcc = routeById('createDcc');
    denied(() =>
      checkDynamo(createDcc, 'TransactWriteItemsCommand', {
        TransactItems: [{ Put: { TableName: 't-dcc' } }, { Put: { TableName: 't-packages' } }],
      }),
    );
    denied(() => checkDynamo(createDcc, 'BatchGetItemCommand', { RequestItems: { 't-packages': {} } }));
  });

  it('lets a route use its buckets with the operations its row lists', () => {
    const download = routeById('downloadPackage');
    expect(download.uses.buckets?.artefacts).toEqual(['read']);
    expect(() => checkS3(download, 'GetObjectCommand', { Bucket: 'b-artefacts' })).not.toThrow();
    denied(() => checkS3(download, 'PutObjectCommand', { Bucket: 'b-artefacts' }));
    denied(() => checkS3(download, 'GetObjectCommand', { Bucket: 'b-resources' }));
    denied(() => checkS3(download, 'ListBucketsCommand', { Bucket: 'b-artefacts' }));
  });

  it('lets only mail-sending rows send mail', () => {
    expect(() => checkMail(routeById('resetPassword'), 'SendEmailCommand')).not.toThrow();
    denied(() => checkMail(routeById('listDcc'), 'SendEmailCommand'));
    // workflow steps commit their mails to the outbox; only the mail worker talks to SES (decision 095)
    denied(() => checkMail(routeById('notifyApprovers'), 'SendEmailCommand'));
    expect(() =>
      checkDynamo(routeById('notifyApprovers'), 'TransactWriteItemsCommand', {
        TransactItems: [{ Put: { TableName: 't-packages' } }, { Put: { TableName: 't-outbox' } }],
      }),
    ).not.toThrow();
  });

  it('holds the stream workers to their rows too', () => {
    const mail = workerGrantee(WORKERS.find((w) => w.id === 'mailOutbox')!);
    const copy = workerGrantee(WORKERS.find((w) => w.id === 'auditCopy')!);
    expect(() => checkMail(mail, 'SendEmailCommand')).not.toThrow();
    expect(() =>
      checkDynamo(mail, 'TransactWriteItemsCommand', {
        TransactItems: [{ Update: { TableName: 't-outbox' } }, { Update: { TableName: 't-packages' } }],
      }),
    ).not.toThrow();
    expect(() => checkDynamo(mail, 'PutItemCommand', { TableName: 't-audit' })).not.toThrow();
    denied(() => checkDynamo(mail, 'UpdateItemCommand', { TableName: 't-audit' }));
    denied(() => checkDynamo(mail, 'GetItemCommand', { TableName: 't-users' }));
    denied(() => checkS3(mail, 'PutObjectCommand', { Bucket: 'b-audit' }));
    expect(() => checkS3(copy, 'PutObjectCommand', { Bucket: 'b-audit' })).not.toThrow();
    denied(() => checkS3(copy, 'DeleteObjectCommand', { Bucket: 'b-audit' }));
    denied(() => checkS3(copy, 'PutObjectCommand', { Bucket: 'b-artefacts' }));
    denied(() => checkDynamo(copy, 'GetItemCommand', { TableName: 't-audit' }));
    denied(() => checkMail(copy, 'SendEmailCommand'));
  });

  it('is wired into the DynamoDB client the handlers use, inside an invocation only', async () => {
    installLocalIamChecks();
    const listDcc = routeById('listDcc');
    const put = () => dynamo().send(new PutCommand({ TableName: 't-dcc', Item: { pk: 'x' } }));
    await expect(routeScope.run(listDcc, put)).rejects.toThrow(/Local IAM check: route listDcc writes/);
    // allowed: the check lets it through and the call fails on the closed port instead
    const get = () => dynamo().send(new GetCommand({ TableName: 't-dcc', Key: { pk: 'x' } }));
    await expect(routeScope.run(listDcc, get)).rejects.not.toThrow(/Local IAM check/);
    // outside an invocation (start-up seeding) nothing is checked
    await expect(put()).rejects.not.toThrow(/Local IAM check/);
  });
});
