import { describe, expect, it } from 'vitest';
import { failedJobOf, UNAVAILABLE, userReason } from './generation-failure';

const record = (responsePayload: unknown, condition = 'RetriesExhausted') =>
  JSON.stringify({
    requestContext: { condition, approximateInvokeCount: 3 },
    requestPayload: { packageId: 'p1', jobId: 'j1' },
    responsePayload,
  });

describe('the failure record of a generation (decision 160)', () => {
  it('shows our own errors in words a user reads, with the attempts', () => {
    expect(
      failedJobOf(
        record({ errorType: 'ConflictError', errorMessage: 'The DCC of this package was deleted' }),
      ),
    ).toEqual({
      job: { packageId: 'p1', jobId: 'j1' },
      reason: 'The DCC of this package was deleted (after 3 attempts)',
    });
  });

  it('never shows an outage’s internals (addresses, SDK names) to a user', () => {
    const r = failedJobOf(
      record({ errorType: 'Error', errorMessage: 'connect ECONNREFUSED 127.0.0.1:4569' }),
    );
    expect(r?.reason).toBe(`${UNAVAILABLE} (after 3 attempts)`);
    expect(userReason('TimeoutError', 'Socket timed out')).toBe(UNAVAILABLE);
  });

  it('says when the event waited too long, and when the run said nothing', () => {
    expect(failedJobOf(record(null, 'EventAgeExceeded'))?.reason).toBe(
      'The generation waited too long to run and was given up',
    );
    expect(failedJobOf(record(null))?.reason).toMatch(/^The generation stopped without a reason/);
  });

  it('ignores a body that is not a destination record of a job', () => {
    expect(failedJobOf('not json')).toBeNull();
    expect(failedJobOf(JSON.stringify({ requestPayload: { packageId: 1 } }))).toBeNull();
  });
});
