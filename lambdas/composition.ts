import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { DynamoAuditLog } from './adapters/dynamodb/audit-log';
import { DynamoUserRepository } from './adapters/dynamodb/user-repository';
import { SesMailer } from './adapters/ses/ses-mailer';
import { appUrl, intEnv, optionalEnv, requireEnv, tableName } from './config/env';
import type { AuditLog } from './ports/audit-log';
import { systemClock } from './ports/clock';
import type { Mailer } from './ports/mailer';
import type { UserRepository } from './ports/user-repository';
import { TokenService } from './services/token-service';
import { UserService } from './services/user-service';

/**
 * The composition root: builds services from the environment, once per module instance. Handlers call
 * these getters; nothing below the handler reads the environment.
 */
let tokenSecret: Promise<string> | undefined;
/** Locally TOKEN_SECRET holds the key; in AWS, TOKEN_SECRET_ARN names a Secrets Manager secret read at cold start. */
function loadTokenSecret(): Promise<string> {
  tokenSecret ??= (async () => {
    const direct = process.env.TOKEN_SECRET;
    if (direct) return direct;
    const arn = requireEnv('TOKEN_SECRET_ARN');
    const r = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }));
    if (!r.SecretString) throw new Error('token secret is empty');
    return r.SecretString;
  })();
  return tokenSecret;
}

let users: UserRepository | undefined;
export const userRepository = (): UserRepository => {
  users ??= new DynamoUserRepository(tableName('users'));
  return users;
};

let audit: AuditLog | undefined;
export const auditLog = (): AuditLog => {
  audit ??= new DynamoAuditLog(tableName('audit'), systemClock);
  return audit;
};

let mailer: Mailer | undefined;
export const mailService = (): Mailer => {
  mailer ??= new SesMailer(requireEnv('MAIL_FROM'));
  return mailer;
};

let userService: Promise<UserService> | undefined;
export function users$(): Promise<UserService> {
  userService ??= loadTokenSecret().then(
    (secret) =>
      new UserService(
        userRepository(),
        new TokenService(secret, intEnv('TOKEN_TTL_SECONDS', 2 * 60 * 60)),
        // A lazy mailer: routes that never mail need no MAIL_FROM.
        { send: (m) => mailService().send(m) },
        // Identity routes that write also audit; read-only ones never touch the audit table.
        { append: (e) => auditLog().append(e), history: (s) => auditLog().history(s) },
        systemClock,
        {
          tempPasswordMinutes: intEnv('TEMP_PASSWORD_MINUTES', 30),
          maxFailuresPerSource: intEnv('LOGIN_MAX_FAILURES_PER_SOURCE', 100),
          appUrl: appUrl(),
        },
      ),
  );
  return userService;
}

export const stageName = (): string => optionalEnv('API_STAGE', 'dev');
