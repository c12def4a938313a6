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
    // the quota is taken atomically: exactly three mails, every other request refused with 429; a request
    // that mailed and then lost the race to write the account stores its password on the fresh account
    // (a mailed password must work), so none of the three answers 409
    expect(by(200).length, log).toBe(3);
    expect(by(429).length, log).toBe(5);
    for (const r of by(429))
      expect(errorMessageOf(r)).toMatch(
        /^A temporary password was already sent 3 times in the last 15 minutes/,
      );
    expect(await mails(email)).toHaveLength(by(200).length);
  }, 60_000);
});
