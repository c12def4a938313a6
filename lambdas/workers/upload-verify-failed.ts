import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { resourceService } from '../composition';
import { loggerFor } from '../middleware/logging';
import { failedVerificationOf } from '../services/resources/verify-failure';

loggerFor('uploadVerifyFailed');

/**
 * The verifyUpload worker's on-failure queue (Lambda's destination record after the last retry): the
 * upload is kept, unlocked, with the reason, so its owner can confirm it again (decision 173). A record
 * that fails is handed in again by the queue.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const failed = failedVerificationOf(record.body);
    if (!failed) continue;
    try {
      await resourceService().failVerification(failed.job, failed.reason);
    } catch {
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
}
