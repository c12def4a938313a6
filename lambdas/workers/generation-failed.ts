import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { packageService } from '../composition-artefacts';
import { loggerFor } from '../middleware/logging';
import { failedJobOf } from '../services/packages/generation-failure';

loggerFor('generationFailed');

/**
 * The generateArtefact worker's on-failure queue (Lambda's destination record after the last retry): the
 * package returns to its deciding state with the reason (decision 160). One service call per record; a
 * record that fails is handed in again by the queue.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const failed = failedJobOf(record.body);
    if (!failed) continue;
    try {
      await packageService().failGeneration(failed.job, failed.reason);
    } catch {
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
}
