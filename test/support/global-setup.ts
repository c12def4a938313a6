import { writeFileSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { startStackProcess } from './stack-process';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    mailboxUrl: string;
    dynamoEndpoint: string;
    s3Endpoint: string;
    /** the stack's data folder (token-keys.json, emulators.json), for tests that forge tokens */
    dataDir: string;
  }
}

/** Starts one local stack (a real `npm start` process on a throw-away data folder) for the integration run. */
export default async function setup(project: TestProject) {
  const stack = await startStackProcess({
    // tests sign in many times from one address: the per-source limit is raised, the per-account one stays
    LOGIN_MAX_FAILURES_PER_SOURCE: '100000',
    // and registrations from one address (issue 23); throttle-register.test.ts checks the limit
    REGISTER_MAX_PER_SOURCE: '100000',
  });
  project.provide('baseUrl', stack.url);
  project.provide('mailboxUrl', stack.mailboxUrl);
  project.provide('dynamoEndpoint', stack.dynamoEndpoint);
  project.provide('s3Endpoint', stack.s3Endpoint);
  project.provide('dataDir', stack.dataDir);
  return async () => {
    // FRP_STACK_LOG=<file> keeps the stack's output (server errors are logged there with request ids)
    if (process.env.FRP_STACK_LOG) writeFileSync(process.env.FRP_STACK_LOG, stack.output.join(''));
    await stack.stop();
  };
}
