import { describe, expect, it } from 'vitest';
import { generationProgress } from './package-state';

const running = (bytesDone: number, bytesTotal?: number) => ({
  generation: {
    jobId: 'j',
    state: 'RUNNING' as const,
    from: 'AWAITING_SIGNATURE' as const,
    requestedBy: {
      id: 'u',
      name: 'Sam Release',
      email: 's@example.com',
      userRole: 'SW_FW_RELEASE_ENGINEER' as const,
    },
    requestedAt: '2026-11-27T09:00:00.000Z',
    bytesDone,
    ...(bytesTotal === undefined ? {} : { bytesTotal }),
  },
});

describe('generation progress shows only sizes it knows', () => {
  it('says the bytes done of the total once the total is known', () => {
    expect(generationProgress(running(1024 * 1024, 4 * 1024 * 1024) as never)).toEqual({
      percent: 25,
      text: '1.0 MiB of 4.0 MiB',
    });
  });

  it('never says "0.0 MiB of 0.0 MiB": before the size is known it says so, without a percentage', () => {
    for (const p of [running(0, 0), running(0), {}])
      expect(generationProgress(p as never)).toEqual({
        percent: null,
        text: 'starting (the size is not known yet)',
      });
  });
});
