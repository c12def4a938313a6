import { asyncWorkerEnv, generationWorkerOf } from '../shared/api/workers';
import { LambdaArtefactJobs } from './adapters/lambda/lambda-artefact-jobs';
import { LocalArtefactJobs } from './adapters/local/local-artefact-jobs';
import { notPlugged, once } from './composition';
import { packageServiceWith } from './composition-packages';
import { requireEnv } from './config/env';
import type { ArtefactJobs } from './ports/artefact-jobs';
import type { PackageService } from './services/package-service';

/**
 * The package service of the deciding routes (last approval, sign, retry): it starts XML generations off
 * the request path (docs/decisions/160) and never touches storage or the signing key itself.
 */

/**
 * Asynchronous invocation of the generation worker of the package's stage: Lambda
 * (GENERATE_ARTEFACT_FUNCTION, GENERATE_DEV_ARTEFACT_FUNCTION; decision 295), or the local stack's invoker.
 */
export const artefactJobs = /* @__PURE__ */ once(
  (): ArtefactJobs =>
    process.env.LOCAL_ASYNC_INVOKE === 'true'
      ? new LocalArtefactJobs()
      : new LambdaArtefactJobs({
          RELEASE: requireEnv(asyncWorkerEnv(generationWorkerOf('RELEASE'))),
          DEV: requireEnv(asyncWorkerEnv(generationWorkerOf('DEV'))),
        }),
);

/** The package service that starts XML generations (the deciding routes). */
export const packageServiceWithJobs: () => PackageService = /* @__PURE__ */ packageServiceWith(() => {
  throw notPlugged('artefact store', 'composition-artefacts.ts (the generateArtefact worker)');
}, artefactJobs);
