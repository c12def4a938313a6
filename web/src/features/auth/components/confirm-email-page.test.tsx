import { API_ERR, MSG } from '@shared/messages';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { session } from '@/lib/session/session-store';
import { memoryBackend, server, tokenOf } from '@/testing/backend/server';
import { MOCK_PASSWORD } from '@/testing/mocks/fixtures';
import { fill, renderApp } from '@/testing/render-app';

/** Registers an account with the password MOCK_PASSWORD and answers the token of its confirmation mail. */
async function registeredLink(): Promise<string> {
  const b = memoryBackend();
  await b.userService.register(
    {
      name: 'Pat New',
      email: 'pat.new@example.org',
      password: MOCK_PASSWORD,
      userRole: 'RELIABILITY_ENGINEER',
    },
    '192.0.2.10',
  );
  const token = /confirm-email\?token=([A-Za-z0-9_-]+)/.exec(b.mailer.sent.at(-1)?.text ?? '')?.[1];
  if (!token) throw new Error('no confirmation link was mailed');
  return token;
}

describe('confirm-email page', () => {
  const TOKEN = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';

  it('confirms with the token of the link and the password chosen at registration, then offers to sign in', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post('/dev/user/confirm-email', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({
          status: 'CONFIRMED',
          message: API_ERR.emailConfirmed,
          email: 'x@example.com',
        });
      }),
    );
    const { user } = renderApp(`/user/confirm-email?token=${TOKEN}`);
    // nothing is sent on opening the link: the page asks for the password first
    const password = await screen.findByLabelText(/^Password/);
    expect(bodies).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(API_ERR.confirmPasswordNeeded);
    expect(bodies).toEqual([]);
    fill(password, 'Chosen-At-Registration-1');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(API_ERR.emailConfirmed)).toBeInTheDocument();
    expect(within(screen.getByRole('main')).getByRole('link', { name: MSG.signIn })).toHaveAttribute(
      'href',
      '/login',
    );
    expect(bodies).toEqual([{ token: TOKEN, password: 'Chosen-At-Registration-1' }]);
  });

  it("keeps the form with the server's words when the password is not the one chosen", async () => {
    const { user } = renderApp(`/user/confirm-email?token=${await registeredLink()}`);
    fill(await screen.findByLabelText(/^Password/), 'Not-The-Chosen-One-1');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    // the password is checked against its scrypt hash at production cost: slow on a busy machine
    expect(await screen.findByRole('alert', {}, { timeout: 30_000 })).toHaveTextContent(
      API_ERR.confirmPasswordWrong,
    );
    expect(screen.getByLabelText(/^Password/)).toBeInTheDocument();
    fill(screen.getByLabelText(/^Password/), MOCK_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(API_ERR.emailConfirmed)).toBeInTheDocument();
  }, 60_000);

  it('"I did not register" cancels with the token alone and says the address is free', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post('/dev/user/confirm-email/cancel', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({
          status: 'CANCELLED',
          message: API_ERR.registrationCancelled,
          email: 'x@example.com',
        });
      }),
    );
    const { user } = renderApp(`/user/confirm-email?token=${TOKEN}`);
    await user.click(await screen.findByRole('button', { name: 'I did not register' }));
    expect(await screen.findByRole('status')).toHaveTextContent(API_ERR.registrationCancelled);
    expect(bodies).toEqual([{ token: TOKEN }]);
    expect(screen.queryByLabelText(/^Password/)).not.toBeInTheDocument();
  });

  it('explains an expired link and mails a new one', async () => {
    // the server's answer to a link past its 24 hours
    server.use(
      http.post('/dev/user/confirm-email', () =>
        HttpResponse.json({ errorMessage: API_ERR.confirmLinkExpired, reason: 'EXPIRED' }, { status: 410 }),
      ),
    );
    const { user } = renderApp(`/user/confirm-email?token=${TOKEN}`);
    fill(await screen.findByLabelText(/^Password/), MOCK_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(API_ERR.confirmLinkExpired);
    fill(screen.getByLabelText('Email address'), 'pat.pending@example.org');
    await user.click(screen.getByRole('button', { name: 'Send a new link' }));
    expect(await screen.findByText(API_ERR.confirmationResent)).toBeInTheDocument();
  });

  it('explains a used link and links to sign in', async () => {
    const token = await registeredLink();
    await memoryBackend().userService.confirmEmail(token, MOCK_PASSWORD, '192.0.2.10');
    const { user } = renderApp(`/user/confirm-email?token=${token}`);
    fill(await screen.findByLabelText(/^Password/), MOCK_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(API_ERR.confirmLinkUsed);
    expect(screen.getAllByRole('link', { name: MSG.signIn }).length).toBeGreaterThan(0);
  });

  it('asks for the whole link when the token is missing', async () => {
    renderApp('/user/confirm-email');
    expect(await screen.findByRole('alert')).toHaveTextContent('This page needs the whole link');
  });
});

describe('login before confirming, and with a one-time password', () => {
  it('says the address waits for its link and sends it again', async () => {
    server.use(
      http.post('/dev/user/login', () =>
        HttpResponse.json(
          {
            errorMessage: API_ERR.emailNotConfirmed,
            authError: API_ERR.emailNotConfirmed,
            emailNotConfirmed: true,
          },
          { status: 403 },
        ),
      ),
    );
    const { user } = renderApp('/login');
    fill(await screen.findByLabelText(/Email address/), 'new@example.com');
    fill(screen.getByLabelText(/^Password/), 'Some-Password-1');
    await user.click(screen.getByRole('button', { name: MSG.submit }));
    expect(await screen.findByRole('alert')).toHaveTextContent(API_ERR.emailNotConfirmed);
    await user.click(screen.getByRole('button', { name: 'Send the link again' }));
    expect(await screen.findByText(API_ERR.confirmationResent)).toBeInTheDocument();
  });

  it('sends an admin with a one-time password to the password form', async () => {
    server.use(
      http.post('/dev/user/login', () =>
        HttpResponse.json({
          token: tokenOf('u-admin'),
          user: JSON.stringify({
            id: 'u-admin',
            name: 'Ada Admin',
            email: 'admin@example.com',
            userRole: 'ADMIN',
          }),
          mustChangePassword: true,
        }),
      ),
    );
    const { user, router } = renderApp('/login');
    fill(await screen.findByLabelText(/Email address/), 'admin@example.com');
    fill(screen.getByLabelText(/^Password/), 'One-Time-Pass-1');
    await user.click(screen.getByRole('button', { name: MSG.submit }));
    expect(await screen.findByText(API_ERR.mustChangePassword)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/settings');
    expect(screen.getByLabelText(/Old password/)).toBeInTheDocument();
  });
});

describe('a temporary password is changed first', () => {
  it('holds the user on the password form, with no tabs, until the password is changed', async () => {
    server.use(
      http.post('/dev/user/login', () =>
        HttpResponse.json({
          token: tokenOf('u-dev'),
          user: JSON.stringify({
            id: 'u-dev',
            name: 'Dana Dev',
            email: 'design-engineer-dev@example.com',
            userRole: 'DESIGN_ENGINEER_DEV',
            roleStatus: 'GRANTED',
          }),
          mustChangePassword: true,
        }),
      ),
    );
    const { user, router } = renderApp('/login');
    fill(await screen.findByLabelText(/Email address/), 'design-engineer-dev@example.com');
    fill(screen.getByLabelText(/^Password/), MOCK_PASSWORD);
    await user.click(screen.getByRole('button', { name: MSG.submit }));
    expect(await screen.findByText(API_ERR.mustChangePassword)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/user/settings');
    // the password form alone: no user info toggle, no navigation tabs
    expect(screen.queryByRole('button', { name: MSG.changeUserInfo })).not.toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Main' })).queryAllByRole('link')).toHaveLength(0);
    // any other page leads back here
    await router.navigate('/packages');
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/settings'));
    expect(await screen.findByText(API_ERR.mustChangePassword)).toBeInTheDocument();

    fill(screen.getByLabelText(/^Old password/), MOCK_PASSWORD);
    fill(screen.getByLabelText(/^New password/), 'My-Own-Password-1');
    fill(screen.getByLabelText(/^Repeat new password/), 'My-Own-Password-1');
    await user.click(screen.getByRole('button', { name: MSG.save }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(MSG.settingsSaved);
    expect(session.get().mustChangePassword).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: MSG.close }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(
      await within(screen.getByRole('navigation', { name: 'Main' })).findByRole('link', {
        name: MSG.navPackages,
      }),
    ).toBeInTheDocument();
  });
});

describe('an account whose role awaits a grant sees its settings only', () => {
  it('goes to the settings with a clear message, and every other page leads back there', async () => {
    const { router } = renderApp('/packages', { as: 'u-pending' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/settings'));
    expect(await screen.findByText('Your role awaits an administrator')).toBeInTheDocument();
    expect(
      screen.getByText(
        "Your role Reliability Engineer waits for an administrator's approval. Until then you can only see and change your own settings.",
      ),
    ).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Main' })).queryAllByRole('link')).toHaveLength(0);
    await router.navigate('/home');
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/settings'));
  });
});
