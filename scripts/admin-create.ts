/**
 * `npm run admin:create -- --email E --name N [--local] [--stage S] [--region R] [--data-dir D]`
 *
 * Creates an administrator, or promotes an existing account to one (confirmed, granted), and prints a
 * one-time password that must be changed at the first sign-in. The first admin of a deployment comes from
 * here: self-service registration can never choose the admin role (docs/infra.md, decision 072).
 *
 * - deployed: the users and audit table names come from the outputs of the stack
 *   FirmwareReleasePortal-<stage> (CloudFormation DescribeStacks); credentials and region from the default
 *   AWS chain (AWS_PROFILE, environment, SSO, instance role...), `--region` overrides the region.
 * - `--local`: the stack `npm start` runs on the data folder (.data, DATA_DIR or --data-dir): DynamoDB
 *   Local's port is read from the folder's emulators.json, as the local stack writes it.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import * as z from 'zod';
import { emailField, nonBlank } from '../shared/api/contracts/common';
import { opsFail } from './ops-env';

export const USERS_TABLE_OUTPUT = 'UsersTableName';
export const AUDIT_TABLE_OUTPUT = 'AuditTableName';

const fail: (message: string) => never = opsFail('admin:create');

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    name: { type: 'string' },
    local: { type: 'boolean', default: false },
    stage: { type: 'string', default: 'dev' },
    region: { type: 'string' },
    'data-dir': { type: 'string' },
  },
  strict: true,
});

const input = z
  .object({
    email: emailField('--email must be an email address'),
    name: nonBlank('--name must not be empty', 100),
  })
  .safeParse({ email: values.email ?? '', name: values.name ?? '' });
if (!input.success) fail(input.error.issues.map((i) => i.message).join('; '));
const { email, name } = input.data;

async function localTables(): Promise<{ users: string; audit: string }> {
  const dataDir = resolve(values['data-dir'] ?? process.env.DATA_DIR ?? '.data');
  const { localAwsEnv, localTable, readLocalEndpoints } = await import('../infra/local/local-aws');
  let dynamo: string;
  try {
    dynamo = readLocalEndpoints(dataDir).dynamo;
  } catch (e) {
    fail((e as Error).message);
  }
  // the same environment the local stack gives its handlers (infra/local/stack.ts)
  Object.assign(process.env, localAwsEnv({ dynamo }));
  return { users: localTable('users'), audit: localTable('audit') };
}

async function deployedTables(): Promise<{ users: string; audit: string }> {
  if (values.region) process.env.AWS_REGION = values.region;
  const { CloudFormationClient, DescribeStacksCommand } = await import('@aws-sdk/client-cloudformation');
  const { stackName } = await import('../infra/lib/portal-app');
  const name = stackName(values.stage!);
  const r = await new CloudFormationClient({}).send(new DescribeStacksCommand({ StackName: name }));
  const outputs = Object.fromEntries((r.Stacks?.[0]?.Outputs ?? []).map((o) => [o.OutputKey, o.OutputValue]));
  const users = outputs[USERS_TABLE_OUTPUT];
  const audit = outputs[AUDIT_TABLE_OUTPUT];
  if (!users || !audit)
    fail(`stack ${name} has no ${USERS_TABLE_OUTPUT}/${AUDIT_TABLE_OUTPUT} output: deploy it first`);
  return { users, audit };
}

const tables = values.local ? await localTables() : await deployedTables();
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const { DynamoUserRepository } = await import('../lambdas/adapters/dynamodb/user-repository');
const { systemClock } = await import('../lambdas/ports/clock');
const { TokenService } = await import('../lambdas/services/token-service');
const { UserService } = await import('../lambdas/services/user-service');

const service = new UserService(
  // the account and its event commit together (decision 283)
  new DynamoUserRepository(tables.users, { table: () => tables.audit, clock: systemClock }),
  // no token is issued and no mail is sent here
  new TokenService(randomBytes(48).toString('base64url'), 60),
  {
    send: async () => {
      throw new Error('admin:create sends no mail');
    },
  },
  systemClock,
  { tempPasswordMinutes: 30, maxFailuresPerSource: 100, appUrl: '', allowedEmailDomains: [] },
);

// 18 random bytes: 24 base64url characters, within the password policy (10 to 128)
const password = randomBytes(18).toString('base64url');
try {
  const outcome = await service.createAdmin(name, email, password);
  console.log(
    outcome === 'created'
      ? `Created the administrator ${email} (${values.local ? 'local stack' : `stage ${values.stage}`}).`
      : `Promoted ${email} to administrator (${values.local ? 'local stack' : `stage ${values.stage}`}).`,
  );
  console.log(`Temporary password: ${password}`);
  console.log('It works once: the first sign-in asks for a new password (Settings → Change password).');
} catch (e) {
  fail((e as Error).message);
}
