import type { TestProject } from 'vitest/node';
import { startStackProcess } from './stack-process';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    mailboxUrl: string;
    dynamoEndpoint: string;
  }
}

/** Starts one local stack (a real `npm start` process on a throw-away data folder) for the integration run. */
export default async function setup(project: TestProject) {
  const stack = await startStackProcess({
    // tests sign in many times from one address: the per-source limit is raised, the per-account one stays
    LOGIN_MAX_FAILURES_PER_SOURCE: '100000',
  });
  project.provide('baseUrl', stack.url);
  project.provide('mailboxUrl', stack.mailboxUrl);
  project.provide('dynamoEndpoint', stack.dynamoEndpoint);
  return async () => {
    await stack.stop();
  };
}
