import type { GenerationJob } from '../../ports/artefact-jobs';

/**
 * Lambda's on-failure destination record of an asynchronous invocation (the SQS message body): the
 * request payload (the job) and the last run's error. The local invoker writes the same shape.
 */
export interface DestinationRecord {
  requestContext?: { condition?: string; approximateInvokeCount?: number };
  requestPayload?: unknown;
  responsePayload?: { errorMessage?: string; errorType?: string } | null;
}

/** What a reviewer reads as the reason of a failure when the run said nothing usable. */
const UNKNOWN = 'The generation stopped without a reason (it ran out of time or memory)';
/** An outage of storage, the signer or the network: the details stay in the log, never in front of a user. */
export const UNAVAILABLE =
  'The XML package could not be read, written or signed because a service was unavailable';
/** Our own errors (shared/domain/errors.ts) and the builder's checks say what is wrong in words a user reads. */
const OWN_ERRORS = new Set(['ConflictError', 'BadRequestError', 'NotFoundError', 'ForbiddenError']);

/** The reason a user is shown for a run's error. */
export function userReason(errorType: string | undefined, message: string | undefined): string {
  if (!message) return UNKNOWN;
  const own = OWN_ERRORS.has(errorType ?? '') || (errorType === 'Error' && /^The [a-z]/.test(message));
  return own ? message.slice(0, 500) : UNAVAILABLE;
}

/** A destination record's request payload and last error; null for a body that is not one. */
export function destinationOf(body: string): {
  payload: Record<string, unknown>;
  errorMessage?: string;
  errorType?: string;
  /** the reason Lambda gave the event up: its age (it never ran in time) or its retries */
  tooOld: boolean;
  tries?: number;
} | null {
  let record: DestinationRecord;
  try {
    record = JSON.parse(body) as DestinationRecord;
  } catch {
    return null;
  }
  const payload = record?.requestPayload;
  if (!payload || typeof payload !== 'object') return null;
  const { errorMessage, errorType } = record.responsePayload ?? {};
  return {
    payload: payload as Record<string, unknown>,
    errorMessage,
    errorType,
    tooOld: record.requestContext?.condition === 'EventAgeExceeded',
    tries: record.requestContext?.approximateInvokeCount,
  };
}

/** The job and a reason from a destination record; null for a body that is not one. */
export function failedJobOf(body: string): { job: GenerationJob; reason: string } | null {
  const d = destinationOf(body);
  const job = d?.payload as Partial<GenerationJob> | undefined;
  if (!d || typeof job?.packageId !== 'string' || typeof job.jobId !== 'string') return null;
  const reason = d.tooOld
    ? 'The generation waited too long to run and was given up'
    : `${userReason(d.errorType, d.errorMessage)}${d.tries ? ` (after ${d.tries} attempts)` : ''}`;
  const runId = typeof job.runId === 'string' ? { runId: job.runId } : {};
  return { job: { packageId: job.packageId, jobId: job.jobId, ...runId }, reason };
}
