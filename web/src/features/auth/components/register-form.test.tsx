import { passwordPolicyMessage } from '@shared/api/contracts/user';
import { MSG } from '@shared/messages';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '@/testing/backend/server';
import { fill, renderApp } from '@/testing/render-app';

type User = ReturnType<typeof renderApp>['user'];

async function submitForm(
  user: User,
  values: { name?: string; email?: string; password?: string; repeat?: string },
) {
  if (values.name) fill(await screen.findByLabelText(/^Name/), values.name);
  if (values.email) fill(screen.getByLabelText(/^Email/), values.email);
  if (values.password) fill(screen.getByLabelText(/^Password/), values.password);
  if (values.repeat) fill(screen.getByLabelText(/^Repeat password/), values.repeat);
  await user.click(screen.getByRole('button', { name: MSG.submit }));
}

describe('registration page', () => {
  it('shows every required-field message when the form is sent empty', async () => {
    const { user } = renderApp('/register');
    await screen.findByLabelText(/^Name/);
    await submitForm(user, {});
    expect(await screen.findByText(MSG.registerNameRequired)).toBeInTheDocument();
    expect(screen.getByText(MSG.registerEmailRequired)).toBeInTheDocument();
    expect(screen.getByText(MSG.registerPasswordRequired)).toBeInTheDocument();
  });

  it("shows 'Please provide a valid email' for an address without a domain", async () => {
    const { user } = renderApp('/register');
    await submitForm(user, {
      name: 'Nina New',
      email: 'nina@',
      password: 'Long-enough-1',
      repeat: 'Long-enough-1',
    });
    expect(await screen.findByText(MSG.registerEmailRequired)).toBeInTheDocument();
  });

  it("shows 'Passwords should be the same' when the repeat differs", async () => {
    const { user } = renderApp('/register');
    await submitForm(user, {
      name: 'Nina New',
      email: 'nina@example.com',
      password: 'Long-enough-1',
      repeat: 'Long-enough-2',
    });
    expect(await screen.findByText(MSG.registerPasswordsDiffer)).toBeInTheDocument();
  });

  it('checks the password policy (10 to 128 characters) before sending', async () => {
    const { user } = renderApp('/register');
    await submitForm(user, {
      name: 'Nina New',
      email: 'nina@example.com',
      password: 'short',
      repeat: 'short',
    });
    expect(await screen.findByText(passwordPolicyMessage)).toBeInTheDocument();
  });

  it('does not offer the admin role', async () => {
    renderApp('/register');
    const select = await screen.findByLabelText('User role');
    const options = within(select)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options).toEqual([
      'Design Engineer (dev)',
      'Design Engineer (test)',
      'Technical Leader',
      'Reliability Engineer',
      'SW/FW Release Engineer',
    ]);
  });

  it("shows 'User with this email is already registered' on a conflict", async () => {
    const { user } = renderApp('/register');
    await submitForm(user, {
      name: 'Dana Again',
      email: 'design-engineer-dev@example.com',
      password: 'Long-enough-1',
      repeat: 'Long-enough-1',
    });
    expect(await screen.findByText(MSG.registerConflict)).toBeInTheDocument();
  });

  it("shows the server's reason of a 400 on the form", async () => {
    server.use(
      http.post('/dev/user/register', () =>
        HttpResponse.json({ errorMessage: 'Name is too long' }, { status: 400 }),
      ),
    );
    const { user } = renderApp('/register');
    await submitForm(user, {
      name: 'Nina New',
      email: 'nina@example.com',
      password: 'Long-enough-1',
      repeat: 'Long-enough-1',
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Name is too long');
  });

  it("sends the chosen role and shows 'Registered successfully.' whose button goes to /login", async () => {
    let sent: unknown;
    server.use(
      http.post('/dev/user/register', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ status: 'REGISTERED' }, { status: 201 });
      }),
    );
    const { user, router } = renderApp('/register');
    await screen.findByLabelText(/^Name/);
    await user.selectOptions(screen.getByLabelText('User role'), 'RELIABILITY_ENGINEER');
    await submitForm(user, {
      name: ' Nina New ',
      email: 'nina@example.com',
      password: 'Long-enough-1',
      repeat: 'Long-enough-1',
    });
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(MSG.registered);
    expect(sent).toEqual({
      name: 'Nina New',
      email: 'nina@example.com',
      password: 'Long-enough-1',
      userRole: 'RELIABILITY_ENGINEER',
    });
    await user.click(within(dialog).getByRole('button', { name: MSG.toLoginPage }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});
