import { describe, expect, it } from 'vitest';
import { baseUrl, mails } from '../support/api';
import { directUsers } from '../support/direct-users';
import { errorMessageOf, rawRequest } from '../support/raw-http';

/**
 * The reset-mail limit per address holds under concurrency: of requests sent at once, each from its own
 * source, at most three get a mail out and the others a 429 (the quota is taken atomically).
 */
describe('password reset limit under concurrent requests', () => {
  it('sends at most three mails to one address when eight requests arrive at once', async () => {
    const [user] = await directUsers(1, 'RELIABILITY_ENGINEER', 'ResetRace');
    const email = user!.email;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        rawRequest(baseUrl(), {
          method: 'POST',
          path: '/dev/user/reset-password',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email }),
          localAddress: `127.0.7.${i + 1}`,
        }),
      ),
    );
    const by = (status: number) => answers.filter((r) => r.status === status);
    const log = answers.map((r) => `${r.status} ${r.text}`).join('\n');
    // the quota is taken atomically: never more than three mails, every other request refused with 429
    // (or, for requests that took a use and then lost the race to write the account, 409; their use is
    // given back, as no mail went out)
    expect(by(200).length + by(409).length + by(429).length, log).toBe(8);
    expect(by(200).length, log).toBeGreaterThanOrEqual(1);
    expect(by(200).length + by(409).length, log).toBeLessThanOrEqual(3);
    expect(by(429).length, log).toBeGreaterThanOrEqual(5);
    for (const r of by(429))
      expect(errorMessageOf(r)).toMatch(
        /^A temporary password was already sent 3 times in the last 15 minutes/,
      );
    for (const r of by(409)) expect(errorMessageOf(r)).toMatch(/changed meanwhile/);
    expect(await mails(email)).toHaveLength(by(200).length);
  }, 60_000);
});
