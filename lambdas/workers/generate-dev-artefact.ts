import { loggerFor } from '../observability/logger';
import { runGenerationJob } from './generation-job';

loggerFor('generateDevArtefact');

/**
 * The generation job of a DEV package (decisions 160, 295): as generate-artefact.ts, signing with the
 * development key only, so a development package never carries the release key's signature. Its
 * on-failure queue's handler is dev-generation-failed.ts.
 */
export async function handler(event: unknown): Promise<void> {
  await runGenerationJob('DEV', event);
}
