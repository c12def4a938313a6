import { beforeAll, describe, expect, it } from 'vitest';
import { api, jsonText } from '../support/api';
import { seededUser } from '../support/fixtures';

/**
 * spec §7: POST /user/auth carries the token as 'Bearer ' plus the cookie token. The
 * server keeps the Authorization header as what signs the call in, and refuses a body token that is
 * not the same one (decision 154).
 */

let dev: Awaited<ReturnType<typeof seededUser>>;
let lead: Awaited<ReturnType<typeof seededUser>>;
beforeAll(async () => {
  dev = await seededUser('designDev');
  lead = await seededUser('lead');
});

describe('POST /user/auth with the token in its body', () => {
  it("answers the user for the spec's payload", async () => {
    const r = await api<{ user: string }>('/user/auth', {
      method: 'POST',
      token: dev.token,
      body: { token: `Bearer ${dev.token}` },
    });
    expect(r.status).toBe(200);
    expect(jsonText<{ id: string }>(r.body.user).id).toBe(dev.id);
  });

  it('still answers a call without a body', async () => {
    const r = await api<{ user: string }>('/user/auth', { method: 'POST', token: dev.token });
    expect(r.status).toBe(200);
    expect(jsonText<{ id: string }>(r.body.user).id).toBe(dev.id);
  });

  it("refuses another session's token in the body with a 400 that says why", async () => {
    const r = await api<{ errorMessage: string }>('/user/auth', {
      method: 'POST',
      token: dev.token,
      body: { token: `Bearer ${lead.token}` },
    });
    expect(r.status).toBe(400);
    expect(r.body.errorMessage).toBe('The token in the body is not the one in the Authorization header');
  });

  it("refuses a token that is not 'Bearer ' plus a token", async () => {
    for (const token of [dev.token, 'Bearer ', 42]) {
      const r = await api<{ errorMessage: string }>('/user/auth', {
        method: 'POST',
        token: dev.token,
        body: { token },
      });
      expect(r.status, String(token)).toBe(400);
      expect(r.body.errorMessage).toBe("token must be 'Bearer ' followed by the token");
    }
  });

  it('a body token alone does not sign in: the gate wants the Authorization header', async () => {
    const r = await api<{ errorMessage: string }>('/user/auth', {
      method: 'POST',
      body: { token: `Bearer ${dev.token}` },
    });
    expect(r.status).toBe(401);
  });
});
