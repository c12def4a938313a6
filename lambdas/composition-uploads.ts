import { asyncWorkerEnv } from '../shared/api/workers';
import { LambdaUploadJobs } from './adapters/lambda/lambda-artefact-jobs';
import { LocalUploadJobs } from './adapters/local/local-artefact-jobs';
import { lazy, once, resourceServiceWith } from './composition';
import { blobStore } from './composition-storage';
import { requireEnv } from './config/env';
import type { UploadJobs } from './ports/upload-jobs';
import type { ResourceService } from './services/resource-service';

/**
 * The resources service of the confirming routes (confirm, complete): they hand the SHA-256 and the
 * registration of an upload to the verifyUpload worker (docs/decisions/173), so only their Lambdas bundle
 * the Lambda client.
 */

/** Asynchronous invocation of the verifyUpload worker: Lambda (VERIFY_UPLOAD_FUNCTION), or the local stack's invoker. */
export const uploadJobs = /* @__PURE__ */ once(
  (): UploadJobs =>
    process.env.LOCAL_ASYNC_INVOKE === 'true'
      ? new LocalUploadJobs()
      : new LambdaUploadJobs(requireEnv(asyncWorkerEnv('verifyUpload'))),
);

export const confirmingResourceService: () => ResourceService = /* @__PURE__ */ resourceServiceWith(
  /* @__PURE__ */ lazy(blobStore),
  uploadJobs,
);
