import { API_ERR, MSG } from '@shared/messages';
import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { session } from '@/lib/session/session-store';
import { getToken } from '@/lib/session/token-cookie';
import { memoryBackend, server } from '@/testing/backend/server';
import { MOCK_PASSWORD } from '@/testing/mocks/fixtures';
import { fill, renderApp } from '@/testing/render-app';

async function fillAndSubmit(user: ReturnType<typeof renderApp>['user'], email: string, password: string) {
  if (email) fill(await screen.findByLabelText(/Email address/), email);
  if (password) fill(screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('button', { name: MSG.submit }));
}

describe('login page', () => {
  it("shows 'Please enter your email and password' when a field is empty and sends nothing", async () => {
    let calls = 0;
    server.use(
      http.post('/dev/user/login', () => {
        calls += 1;
        return HttpResponse.json({}, { status: 500 });
      }),
    );
    const { user } = renderApp('/login');
    await fillAndSubmit(user, 'design-engineer-dev@example.com', '');
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.loginEmpty);
    expect(calls).toBe(0);
  });

  it('uses an email-type input for the email address', async () => {
    renderApp('/login');
    expect(await screen.findByLabelText(/Email address/)).toHaveAttribute('type', 'email');
  });

  it('clears the error when the user edits a field', async () => {
    const { user } = renderApp('/login');
    await user.click(await screen.findByRole('button', { name: MSG.submit }));
    expect(await screen.findByText(MSG.loginEmpty)).toBeInTheDocument();
    fill(screen.getByLabelText(/Email address/), 'a');
    expect(screen.queryByText(MSG.loginEmpty)).not.toBeInTheDocument();
  });

  it("shows 'Login or password is incorrect', marks both fields and shows no session popup on 401", async () => {
    const { user } = renderApp('/login');
    await fillAndSubmit(user, 'design-engineer-dev@example.com', 'wrong-password-1');
    expect(await screen.findByText(MSG.loginIncorrect)).toBeInTheDocument();
    expect(screen.getByLabelText(/Email address/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/^Password/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText(MSG.sessionTimeout)).not.toBeInTheDocument();
  });

  it('shows the throttling message of a 429', async () => {
    server.use(
      http.post('/dev/user/login', () =>
        HttpResponse.json(
          { errorMessage: API_ERR.tooManyAttempts(60), retryAfterSeconds: 60 },
          { status: 429 },
        ),
      ),
    );
    const { user } = renderApp('/login');
    await fillAndSubmit(user, 'design-engineer-dev@example.com', 'whatever-123');
    expect(await screen.findByText(API_ERR.tooManyAttempts(60))).toBeInTheDocument();
  });

  it('shows the internal-error popup when the server fails with 5xx', async () => {
    server.use(
      http.post('/dev/user/login', () =>
        HttpResponse.json({ errorMessage: 'database down' }, { status: 503 }),
      ),
    );
    const { user } = renderApp('/login');
    await fillAndSubmit(user, 'design-engineer-dev@example.com', 'whatever-123');
    expect(await screen.findByRole('alertdialog')).toHaveTextContent(
      `${MSG.internalErrorPrefix}database down`,
    );
    expect(screen.getByRole('button', { name: MSG.toHomePage })).toBeInTheDocument();
  });

  it('stores the token cookie and sends an engineer to /home', async () => {
    const { user, router } = renderApp('/login');
    await fillAndSubmit(user, 'design-engineer-dev@example.com', MOCK_PASSWORD);
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    // the token the backend issued to that user at sign-in
    expect((await memoryBackend().tokens.verify(getToken() ?? '', new Date()))?.sub).toBe('u-dev');
    expect(session.get()).toMatchObject({ isAuthenticated: true, admin: false, user: { name: 'Dana Dev' } });
    expect(await screen.findByText(MSG.slogan)).toBeInTheDocument();
  });

  it('sends an admin to /admin after login', async () => {
    const { user, router } = renderApp('/login');
    await fillAndSubmit(user, 'admin@example.com', MOCK_PASSWORD);
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(session.get().admin).toBe(true);
  });

  it("links 'Forgot Password?' to the reset page and shows 'Sign up' in the header", async () => {
    renderApp('/login');
    expect(await screen.findByRole('link', { name: MSG.forgotPassword })).toHaveAttribute(
      'href',
      '/user/reset-password',
    );
    expect(screen.getByRole('link', { name: MSG.signUp })).toHaveAttribute('href', '/register');
  });
});
