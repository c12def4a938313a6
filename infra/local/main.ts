import { resolve } from 'node:path';
import { ROLE_LABELS } from '../../shared/domain/roles';
import { SEED_PASSWORD, SEED_USERS } from '../../shared/domain/seed-users';
import { COMPANY_NAME, COMPANY_PASSWORD, SEED_COMPANY_ACCOUNTS } from './company-idp';
import { startLocalStack } from './stack';

/**
 * `npm start`: the whole product on one port. Data persists in .data/ (DATA_DIR overrides); PORT
 * overrides 3000. Ctrl-C stops every process this started.
 */
const port = Number(process.env.PORT ?? 3000);
const dataDir = resolve(process.env.DATA_DIR ?? '.data');
const webRoot = resolve(process.env.WEB_ROOT ?? 'web/dist');

const stack = await startLocalStack({ port, dataDir, webRoot }).catch((e: Error) => {
  console.error(`Could not start the local stack: ${e.message}`);
  process.exit(1);
});

const width = Math.max(...SEED_USERS.map((u) => u.email.length));
console.log('');
console.log(`Firmware Release Portal is running at ${stack.url}`);
console.log(`  API:      ${stack.url}/dev`);
console.log(`  Mailbox:  ${stack.mailboxUrl}  (mail the app sends, e.g. reset passwords)`);
if (stack.companyIdp) {
  console.log(`  Company IdP: ${stack.companyIdp.issuer}  (${COMPANY_NAME}; "Sign in with ${COMPANY_NAME}")`);
  console.log(`    people: ${stack.companyIdp.accountsFile} — password ${COMPANY_PASSWORD}`);
  for (const a of SEED_COMPANY_ACCOUNTS)
    console.log(
      `    ${a.email.padEnd(32)} ${a.disabled ? 'disabled (a leaver)' : a.email_verified ? '' : 'email not verified'}`,
    );
}
console.log(
  `  Users${stack.seeded ? ' (just seeded)' : ' (seeded on first start; deleted ones stay deleted)'} — password ${SEED_PASSWORD}:`,
);
for (const u of SEED_USERS) console.log(`    ${u.email.padEnd(width)}  ${ROLE_LABELS[u.role]}`);
console.log('Press Ctrl-C to stop.');
console.log('READY');

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping the local stack...`);
  await stack.stop();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
