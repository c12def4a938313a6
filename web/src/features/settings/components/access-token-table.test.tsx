import type { AccessTokenView } from '@shared/domain/access-tokens';
import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '@/testing/backend/server';
import { renderApp } from '@/testing/render-app';

const token = (over: Partial<AccessTokenView>): AccessTokenView => ({
  id: 'tok-live',
  name: 'nightly build',
  scopes: ['resources:upload'],
  owner: { id: 'u-dev', name: 'Dana Dev', email: 'design-engineer-dev@example.com' },
  createdAt: '2026-11-20T08:00:00.000Z',
  expiresAt: '2026-12-20T08:00:00.000Z',
  state: 'ACTIVE',
  ...over,
});

const ended = token({
  id: 'tok-ended',
  name: 'release upload',
  state: 'ENDED',
  ended: {
    cause: 'ROLE_CHANGED',
    at: '2026-11-27T09:41:00.000Z',
    text: "the owner's role changed on 2026-11-27 09:41 UTC",
  },
});

function answerTokens(list: AccessTokenView[]) {
  server.use(http.get('/dev/access-tokens', () => HttpResponse.json({ accessTokens: list })));
}

async function openTokens(as: string, path = '/user/settings') {
  const view = renderApp(path, { as });
  await view.user.click(await screen.findByRole('button', { name: 'Access tokens' }));
}

const row = async (name: string) => (await screen.findByRole('cell', { name })).closest('tr') as HTMLElement;

describe('access token list: a token that ended with its owner (decision 334)', () => {
  it('says why it ended and offers no Revoke; a live one keeps Revoke', async () => {
    answerTokens([token({}), ended]);
    await openTokens('u-dev');
    const endedRow = await row('release upload');
    expect(endedRow).toHaveTextContent("ended: the owner's role changed on 2026-11-27 09:41 UTC");
    expect(within(endedRow).queryByRole('button', { name: /Revoke/ })).toBeNull();
    const live = await row('nightly build');
    expect(within(live).getByRole('button', { name: 'Revoke nightly build' })).toBeInTheDocument();
    expect(live).not.toHaveTextContent('ended:');
  });

  it("shows the admins every owner's ended token with its reason", async () => {
    answerTokens([
      token({
        ...ended,
        owner: { id: 'u-test', name: 'Theo Test', email: 'design-engineer-test@example.com' },
        ended: {
          cause: 'PASSWORD_RESET',
          at: '2026-11-28T07:05:00.000Z',
          text: "the owner's password was reset on 2026-11-28 07:05 UTC",
        },
      }),
    ]);
    await openTokens('u-admin', '/admin/settings');
    const r = await row('release upload');
    expect(r).toHaveTextContent('Theo Test <design-engineer-test@example.com>');
    expect(r).toHaveTextContent("ended: the owner's password was reset on 2026-11-28 07:05 UTC");
  });
});
