import type { UploadJobs, VerificationJob } from '../../ports/upload-jobs';
import { MemoryJobs } from './jobs';

/** Upload verification jobs in memory (decision 173). */
export class MemoryUploadJobs extends MemoryJobs<VerificationJob> implements UploadJobs {}
