import { MSG } from '@shared/messages';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render-app';

describe('home page and role requests', () => {
  it('sends an account whose role waits to its settings, saying why (it reads nothing)', async () => {
    const { router } = renderApp('/home', { as: 'u-pending' });
    expect(await screen.findByRole('heading', { name: MSG.settings })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/user/settings');
    expect(screen.queryByText(MSG.slogan)).not.toBeInTheDocument();
    expect(
      screen.getByText(
        "Your role Reliability Engineer waits for an administrator's approval. Until then you can only see and change your own settings.",
      ),
    ).toBeInTheDocument();
  });

  it('shows no notice to a granted account', async () => {
    renderApp('/home', { as: 'u-dev' });
    expect(await screen.findByText(MSG.slogan)).toBeInTheDocument();
    expect(screen.queryByText(/waits for an administrator's approval/)).not.toBeInTheDocument();
  });
});
