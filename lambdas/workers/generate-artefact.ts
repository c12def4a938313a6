import { loggerFor } from '../observability/logger';
import { runGenerationJob } from './generation-job';

// names this Lambda's logger (the service's lines use it)
loggerFor('generateArtefact');

/**
 * The asynchronous invocation of a generation job of a RELEASE package (decisions 160, 295): one service
 * call, signing with the release key only. A thrown error makes Lambda retry the run (the event invoke
 * config), and after the last retry sends the event to the on-failure queue, whose handler
 * (generation-failed.ts) returns the package with the reason.
 */
export async function handler(event: unknown): Promise<void> {
  await runGenerationJob('RELEASE', event);
}
