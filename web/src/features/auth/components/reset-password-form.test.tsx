import { MSG } from '@shared/messages';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '@/testing/backend/server';
import { fill, renderApp } from '@/testing/render-app';

describe('reset password page', () => {
  it("shows 'Please enter your email and password' when the email is empty", async () => {
    const { user } = renderApp('/user/reset-password');
    await user.click(await screen.findByRole('button', { name: MSG.submit }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.loginEmpty);
  });

  it("shows 'Login is incorrect' when the server answers 'User not found'", async () => {
    const { user } = renderApp('/user/reset-password');
    fill(await screen.findByLabelText(/Email address/), 'nobody@example.com');
    await user.click(screen.getByRole('button', { name: MSG.submit }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.resetUserNotFoundShownAs);
  });

  it('shows any other authError as it is', async () => {
    server.use(
      http.post('/dev/user/reset-password', () =>
        HttpResponse.json({ errorMessage: 'x', authError: 'Account is locked' }, { status: 404 }),
      ),
    );
    const { user } = renderApp('/user/reset-password');
    fill(await screen.findByLabelText(/Email address/), 'dana@example.com');
    await user.click(screen.getByRole('button', { name: MSG.submit }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Account is locked');
  });

  it('shows the error popup for other failures', async () => {
    server.use(
      http.post('/dev/user/reset-password', () =>
        HttpResponse.json({ errorMessage: 'mail service down' }, { status: 503 }),
      ),
    );
    const { user } = renderApp('/user/reset-password');
    fill(await screen.findByLabelText(/Email address/), 'dana@example.com');
    await user.click(screen.getByRole('button', { name: MSG.submit }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent(
      `${MSG.internalErrorPrefix}mail service down`,
    );
  });

  it("confirms with 'Email with new password was sent to this address' and 'To login page'", async () => {
    const { user, router } = renderApp('/user/reset-password');
    fill(await screen.findByLabelText(/Email address/), 'design-engineer-dev@example.com');
    await user.click(screen.getByRole('button', { name: MSG.submit }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(MSG.resetMailSent);
    await user.click(within(dialog).getByRole('button', { name: MSG.toLoginPage }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it("shows 'Sign in' in the header for visitors", async () => {
    renderApp('/user/reset-password');
    expect(await screen.findByRole('link', { name: MSG.signIn })).toHaveAttribute('href', '/login');
  });
});
