import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';

/**
 * The handler of an asynchronous worker's on-failure queue (Lambda's destination records after the last
 * retry): each record is parsed to the failed job and a reason a user may read, and handed to `fail`.
 * A body that is not a destination record is dropped; a record whose `fail` throws is handed in again
 * by the queue (partial batch response), and after 5 receives goes to the dead-letter queue.
 */
export function onFailureQueue<Failed>(
  parse: (body: string) => Failed | null,
  fail: (failed: Failed) => Promise<void>,
  /** called once per failure handled (the generation worker counts FailedGenerations) */
  handled: () => void = () => undefined,
): (event: SQSEvent) => Promise<SQSBatchResponse> {
  return async (event) => {
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      const failed = parse(record.body);
      if (!failed) continue;
      try {
        await fail(failed);
        handled();
      } catch {
        failures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures: failures };
  };
}
