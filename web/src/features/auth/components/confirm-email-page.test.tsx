import { API_ERR, MSG } from '@shared/messages';
import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '@/testing/mocks/server';
import { fill, renderApp } from '@/testing/render-app';

describe('confirm-email page (issue 12)', () => {
  it('confirms the token of the link once and offers to sign in', async () => {
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
    renderApp('/user/confirm-email?token=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG');
    expect(await screen.findByText(API_ERR.emailConfirmed)).toBeInTheDocument();
    expect(within(screen.getByRole('main')).getByRole('link', { name: MSG.signIn })).toHaveAttribute(
      'href',
      '/login',
    );
    expect(bodies).toEqual([{ token: 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG' }]);
  });

  it('explains an expired link and mails a new one', async () => {
    const { user } = renderApp('/user/confirm-email?token=expired');
    expect(await screen.findByRole('alert')).toHaveTextContent(API_ERR.confirmLinkExpired);
    fill(screen.getByLabelText('Email address'), 'pat.pending@example.org');
    await user.click(screen.getByRole('button', { name: 'Send a new link' }));
    expect(await screen.findByText(API_ERR.confirmationResent)).toBeInTheDocument();
  });

  it('explains a used link and links to sign in', async () => {
    renderApp('/user/confirm-email?token=used');
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
          token: 'mock-token-u-admin',
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
