import { passwordPolicyMessage } from '@shared/api/contracts/user';
import { API_ERR, MSG } from '@shared/messages';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { session } from '@/lib/session/session-store';
import { getToken } from '@/lib/session/token-cookie';
import { server } from '@/testing/backend/server';
import { MOCK_PASSWORD } from '@/testing/mocks/fixtures';
import { fill, renderApp } from '@/testing/render-app';

const save = () => screen.getByRole('button', { name: MSG.save });

async function openSettings() {
  const view = renderApp('/user/settings', { as: 'u-dev' });
  await screen.findByRole('heading', { name: MSG.settings });
  return view;
}

async function openPasswordForm() {
  const view = await openSettings();
  await view.user.click(screen.getByRole('button', { name: MSG.changePassword }));
  await screen.findByLabelText(/^Old password/);
  return view;
}

describe('user settings: user info', () => {
  it('starts on the user info with the stored values and offers no admin role', async () => {
    await openSettings();
    expect(screen.getByRole('button', { name: MSG.changeUserInfo })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Dana Dev');
    expect(screen.getByLabelText(/^Email/)).toHaveValue('design-engineer-dev@example.com');
    const roles = within(screen.getByLabelText('User role')).getAllByRole('option');
    expect(roles.map((o) => o.textContent)).not.toContain('Admin');
  });

  it('saves only when something changed', async () => {
    await openSettings();
    expect(save()).toBeDisabled();
    fill(screen.getByLabelText(/^Name/), 'Dana Developer');
    expect(save()).toBeEnabled();
  });

  it("shows 'Please provide your name' for an empty name", async () => {
    const { user } = await openSettings();
    fill(screen.getByLabelText(/^Name/), '  ');
    await user.click(save());
    expect(await screen.findByText(MSG.registerNameRequired)).toBeInTheDocument();
  });

  it("stores the answered user and shows 'Successfully updated your data', then goes to /home", async () => {
    const { user, router } = await openSettings();
    // the name only: a new role waits for an administrator, which keeps the account on its settings
    fill(screen.getByLabelText(/^Name/), 'Dana Developer');
    await user.click(save());
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(MSG.settingsSaved);
    expect(session.get().user).toMatchObject({ name: 'Dana Developer', userRole: 'DESIGN_ENGINEER_DEV' });
    await user.click(within(dialog).getByRole('button', { name: MSG.close }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(await screen.findByTestId('avatar-initials')).toHaveTextContent('DD');
  });

  it('shows a conflict when the email belongs to someone else', async () => {
    const { user } = await openSettings();
    fill(screen.getByLabelText(/^Email/), 'admin@example.com');
    await user.click(save());
    expect(await screen.findByText(MSG.registerConflict)).toBeInTheDocument();
  });
});

describe('user settings: password', () => {
  it("shows 'All fields should not be empty' when a field is empty", async () => {
    const { user } = await openPasswordForm();
    fill(screen.getByLabelText(/^Old password/), MOCK_PASSWORD);
    await user.click(save());
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.passwordFieldsEmpty);
  });

  it("shows 'New passwords should be the same' when the new ones differ", async () => {
    const { user } = await openPasswordForm();
    fill(screen.getByLabelText(/^Old password/), MOCK_PASSWORD);
    fill(screen.getByLabelText(/^New password/), 'Another-pass-1');
    fill(screen.getByLabelText(/^Repeat new password/), 'Another-pass-2');
    await user.click(save());
    expect(await screen.findByRole('alert')).toHaveTextContent(MSG.newPasswordsDiffer);
  });

  it('checks the password policy before sending', async () => {
    const { user } = await openPasswordForm();
    fill(screen.getByLabelText(/^Old password/), MOCK_PASSWORD);
    fill(screen.getByLabelText(/^New password/), 'short');
    fill(screen.getByLabelText(/^Repeat new password/), 'short');
    await user.click(save());
    expect(await screen.findByRole('alert')).toHaveTextContent(passwordPolicyMessage);
  });

  it("shows the server's authError under the fields when the old password is wrong", async () => {
    const { user } = await openPasswordForm();
    fill(screen.getByLabelText(/^Old password/), 'Not-the-password');
    fill(screen.getByLabelText(/^New password/), 'Another-pass-1');
    fill(screen.getByLabelText(/^Repeat new password/), 'Another-pass-1');
    await user.click(save());
    expect(await screen.findByRole('alert')).toHaveTextContent(API_ERR.oldPasswordWrong);
    expect(screen.queryByText(MSG.sessionTimeout)).not.toBeInTheDocument();
  });

  it('shows a sign-in lockout (429) under the fields, without a popup or ending the session', async () => {
    const locked = API_ERR.tooManyAttempts(42);
    server.use(
      http.post('/dev/user/password', () =>
        HttpResponse.json({ errorMessage: locked }, { status: 429, headers: { 'Retry-After': '42' } }),
      ),
    );
    const { user } = await openPasswordForm();
    fill(screen.getByLabelText(/^Old password/), MOCK_PASSWORD);
    fill(screen.getByLabelText(/^New password/), 'Another-pass-1');
    fill(screen.getByLabelText(/^Repeat new password/), 'Another-pass-1');
    await user.click(save());
    expect(await screen.findByRole('alert')).toHaveTextContent(locked);
    // not the internal-error popup of spec §8 (it is an alertdialog)
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.queryByText(`${MSG.internalErrorPrefix}${locked}`)).not.toBeInTheDocument();
    expect(session.get().user).not.toBeNull();
  });

  it('keeps the session with the new token the server returns', async () => {
    server.use(
      http.post('/dev/user/password', () =>
        HttpResponse.json({ status: 'UPDATED', message: MSG.settingsSaved, token: 'fresh-token' }),
      ),
    );
    const { user } = await openPasswordForm();
    fill(screen.getByLabelText(/^Old password/), MOCK_PASSWORD);
    fill(screen.getByLabelText(/^New password/), 'Another-pass-1');
    fill(screen.getByLabelText(/^Repeat new password/), 'Another-pass-1');
    await user.click(save());
    expect(await screen.findByRole('dialog')).toHaveTextContent(MSG.settingsSaved);
    expect(getToken()).toBe('fresh-token');
  });
});
