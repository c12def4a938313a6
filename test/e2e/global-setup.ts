import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { startStackProcess } from '../support/stack-process';

/**
 * One local stack for the journeys: a real `npm start` process (web/dist must be built) on free ports and
 * a fresh data folder. Its URLs reach the tests through the environment; the returned function stops it.
 */
export default async function globalSetup() {
  if (!existsSync(resolve('web/dist/index.html'))) {
    throw new Error('web/dist is missing: run `npm run build:web` first (npm test does it)');
  }
  const stack = await startStackProcess({
    LOGIN_MAX_FAILURES_PER_SOURCE: '100000',
    // and registrations from one address; throttle-register.test.ts checks the limit
    REGISTER_MAX_PER_SOURCE: '100000',
    // local-only pacing (decision 161): small packages generate in milliseconds; the journeys see Generating…
    LOCAL_GENERATION_START_DELAY_MS: '1500',
  });
  process.env.E2E_BASE_URL = stack.url;
  process.env.E2E_MAILBOX_URL = stack.mailboxUrl;
  process.env.E2E_DATA_DIR = stack.dataDir;
  // for journeys that need accounts made straight in the table (direct-user-records.ts)
  process.env.E2E_DYNAMO_ENDPOINT = stack.dynamoEndpoint;
  return async () => {
    await stack.stop();
  };
}
