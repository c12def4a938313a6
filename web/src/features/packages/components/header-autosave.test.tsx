import { cleanup, fireEvent, screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { server } from '@/testing/backend/server';
import { fill } from '@/testing/render-app';
import { atPath, openWith } from '../testing/package-test-utils';
import { readUnsaved } from '../utils/unsaved-header';

/** "never lose, never re-type": the header editor saves to the draft as the user types. */
const open = () => openWith('/packages/header', { as: 'u-dev', pkg: 'p-1', flow: 'dev' });
const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const table = () => screen.findByRole('table', { name: 'Package header' });
const status = () =>
  screen.getByText((_, el) => el?.getAttribute('data-save-state') !== null && el?.tagName === 'SPAN');
const SETTLE = { timeout: 5000 };

afterEach(() => {
  server.events.removeAllListeners();
  localStorage.clear();
});

describe('header autosave', () => {
  it('saves an edit to the draft without Continue and says when, and the saved value is there on reopening', async () => {
    const patches: string[] = [];
    server.events.on('request:start', ({ request }) => {
      if (request.method === 'PATCH') patches.push(new URL(request.url).pathname);
    });
    open();
    await table();
    expect(status()).toHaveTextContent('Every change is saved to the draft as you type');
    fill(input('Package Id (decimal)'), '4711');
    expect(status()).toHaveTextContent('Changes not saved yet');
    expect(await screen.findByText(/^Saved \d\d:\d\d$/, {}, SETTLE)).toHaveAttribute('role', 'status');
    expect(patches).toEqual(['/dev/packages/p-1/header']);
    cleanup();
    open();
    await table();
    expect(input('Package Id (decimal)')).toHaveValue('4711');
  });

  it('keeps the values of a failed save in this browser and offers them back on reopening', async () => {
    server.use(
      http.patch('/dev/packages/:id/header', () =>
        HttpResponse.json({ errorMessage: 'The server could not be reached' }, { status: 503 }),
      ),
    );
    open();
    await table();
    fill(input('Package Id (decimal)'), '999');
    expect(
      await screen.findByText('Not saved: The server could not be reached', {}, SETTLE),
    ).toBeInTheDocument();
    expect(JSON.stringify(readUnsaved('p-1')?.fields)).toContain('999');
    cleanup();
    server.resetHandlers();
    open();
    await table();
    expect(await screen.findByText('Header changes kept in this browser')).toBeInTheDocument();
    expect(input('Package Id (decimal)')).not.toHaveValue('999');
    fireEvent.click(screen.getByRole('button', { name: 'Restore my changes' }));
    expect(input('Package Id (decimal)')).toHaveValue('999');
    // restored values are saved like any edit; the kept copy goes once the server holds them
    expect(await screen.findByText(/^Saved \d\d:\d\d$/, {}, SETTLE)).toBeInTheDocument();
    expect(readUnsaved('p-1')).toBeNull();
  });

  it('asks before leaving when the last changes could not be saved, and stays on Stay', async () => {
    server.use(
      http.patch('/dev/packages/:id/header', () =>
        HttpResponse.json({ errorMessage: 'The server could not be reached' }, { status: 503 }),
      ),
    );
    const { router } = open();
    await table();
    fill(input('Package Id (decimal)'), '998');
    await router.navigate('/home');
    expect(
      await screen.findByRole('dialog', { name: 'Leave with header changes not saved?' }, SETTLE),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Stay on this page' }));
    await atPath(router, '/packages/header');
    expect(input('Package Id (decimal)')).toHaveValue('998');
    await router.navigate('/home');
    fireEvent.click(await screen.findByRole('button', { name: 'Leave without saving' }, SETTLE));
    await atPath(router, '/home');
  });

  it('leaving saves what is not saved yet first, then goes', async () => {
    const bodies: string[] = [];
    server.events.on('request:start', async ({ request }) => {
      if (request.method === 'PATCH') bodies.push(await request.clone().text());
    });
    const { router } = open();
    await table();
    fill(input('Package Id (decimal)'), '321');
    await router.navigate('/home');
    await atPath(router, '/home');
    expect(bodies.some((b) => b.includes('321'))).toBe(true);
  });
});
