import { MSG } from '@shared/messages';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render-app';

describe('home page and role requests (issue 12)', () => {
  it('tells an account whose role waits that it can only read', async () => {
    renderApp('/home', { as: 'u-pending' });
    expect(await screen.findByText(MSG.slogan)).toBeInTheDocument();
    expect(
      screen.getByText(/^Your role Reliability Engineer waits for an administrator's approval\./),
    ).toBeInTheDocument();
  });

  it('shows no notice to a granted account', async () => {
    renderApp('/home', { as: 'u-dev' });
    expect(await screen.findByText(MSG.slogan)).toBeInTheDocument();
    expect(screen.queryByText(/waits for an administrator's approval/)).not.toBeInTheDocument();
  });
});
