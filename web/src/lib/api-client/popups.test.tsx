import { GATEWAY_ANSWERS } from '@shared/api/runtime';
import { API_ERR, MSG } from '@shared/messages';
import { act, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { showWarning } from '@/lib/popup/popup-store';
import { session } from '@/lib/session/session-store';
import { getToken } from '@/lib/session/token-cookie';
import { server } from '@/testing/backend/server';
import { renderApp } from '@/testing/render-app';
import { isSessionExpired } from './api-client';

describe('error catalogue popups', () => {
  it.each([
    ['HTTP 401', 401, 'Token invalid: please sign in again'],
    [
      'HTTP 500 with a JWT signature error',
      500,
      'JWT signature does not match locally computed signature. Check...',
    ],
    ["HTTP 500 with 'Token invalid'", 500, 'Token invalid'],
  ])(
    "clears the session and shows 'Session timeout. Please login.' on %s",
    async (_case, status, errorMessage) => {
      server.use(http.get('/dev/resources/patch/dev', () => HttpResponse.json({ errorMessage }, { status })));
      const { user, router } = renderApp('/patches', { as: 'u-dev' });
      const dialog = await screen.findByRole('alertdialog');
      expect(dialog).toHaveTextContent(MSG.sessionTimeout);
      expect(getToken()).toBeNull();
      expect(session.get().isAuthenticated).toBe(false);
      await user.click(within(dialog).getByRole('button', { name: MSG.toLoginPage }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    },
  );

  it('says why when the account was deleted: the spec words, then the reason, then the login page', async () => {
    server.use(
      http.get('/dev/resources/patch/dev', () =>
        HttpResponse.json({ errorMessage: API_ERR.accountDeleted }, { status: 401 }),
      ),
    );
    const { user, router } = renderApp('/patches', { as: 'u-dev' });
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(`${MSG.sessionTimeout} ${API_ERR.accountDeleted}`);
    expect(getToken()).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: MSG.toLoginPage }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it("shows 'Internal server error. Please, contact administrator. Error: …' with 'To home page' for other failures", async () => {
    server.use(
      http.get('/dev/resources/model/dev', () =>
        HttpResponse.json({ errorMessage: 'boom' }, { status: 502 }),
      ),
    );
    const { user, router } = renderApp('/models', { as: 'u-dev' });
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(`${MSG.internalErrorPrefix}boom`);
    await user.click(within(dialog).getByRole('button', { name: MSG.toHomePage }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
  });

  it.each([
    ['an unknown route', 'missingAuthenticationToken', 'Missing Authentication Token'],
    ['an event too large for Lambda', 'eventTooLarge', 'Request Too Long'],
    ['a request over 10 MB', 'requestTooLarge', 'HTTP content length exceeded 10485760 bytes.'],
    ['a failed function', 'internalServerError', 'Internal server error'],
  ] as const)(
    "shows API Gateway's own answer to %s in the internal-error popup and keeps the session",
    async (_case, key, shown) => {
      const answer = GATEWAY_ANSWERS[key];
      server.use(
        http.get(
          '/dev/resources/patch/dev',
          () =>
            new HttpResponse(answer.body, {
              status: answer.status,
              headers: {
                'Content-Type': answer.contentType,
                ...(answer.errorType ? { 'x-amzn-ErrorType': answer.errorType } : {}),
              },
            }),
        ),
      );
      renderApp('/patches', { as: 'u-dev' });
      const dialog = await screen.findByRole('alertdialog');
      expect(dialog).toHaveTextContent(`${MSG.internalErrorPrefix}${shown}`);
      expect(dialog).not.toHaveTextContent('{');
      expect(getToken()).not.toBeNull();
      expect(session.get().isAuthenticated).toBe(true);
    },
  );

  it('tells when the server cannot be reached', async () => {
    server.use(http.get('/dev/resources/patch/dev', () => HttpResponse.error()));
    renderApp('/patches', { as: 'u-dev' });
    expect(await screen.findByRole('alertdialog')).toHaveTextContent(/server could not be reached/);
  });

  it("shows a warning with 'Close' that runs the close callback", async () => {
    const onClose = vi.fn();
    const { user, router } = renderApp('/home', { as: 'u-dev' });
    await screen.findByText(MSG.slogan);
    act(() => showWarning(MSG.noSigners, onClose));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(MSG.noSigners);
    await user.click(within(dialog).getByRole('button', { name: MSG.close }));
    expect(onClose).toHaveBeenCalledOnce();
    expect(router.state.location.pathname).toBe('/home');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('puts the focus on the popup button and closes it with Escape', async () => {
    const { user } = renderApp('/home', { as: 'u-dev' });
    await screen.findByText(MSG.slogan);
    act(() => showWarning('Check the device list'));
    const button = await screen.findByRole('button', { name: MSG.close });
    await waitFor(() => expect(button).toHaveFocus());
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('shows the loader overlay while a call runs', async () => {
    let release: (() => void) | undefined;
    server.use(
      http.get('/dev/resources/patch/dev', async () => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return HttpResponse.json({ resources: '[]' });
      }),
    );
    renderApp('/patches', { as: 'u-dev' });
    await waitFor(() => expect(release).toBeDefined());
    expect(screen.getByRole('status')).toHaveTextContent('Loading');
    release?.();
    await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
  });

  it('treats only 401 and the two token messages of a 500 as a session timeout', () => {
    expect(isSessionExpired(401, '')).toBe(true);
    expect(isSessionExpired(500, 'x Token invalid y')).toBe(true);
    expect(isSessionExpired(500, 'database down')).toBe(false);
    expect(isSessionExpired(403, 'Token invalid')).toBe(false);
  });
});
