import { MSG } from '@shared/messages';
import { act, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REFRESH_FAILING_MESSAGE, REFRESH_MS } from '@/hooks/use-refresh-while';
import { loader } from '@/lib/loader/loader-store';
import { type Popup, popups } from '@/lib/popup/popup-store';
import { session } from '@/lib/session/session-store';
import { generating, replacePackage, server } from '@/testing/backend/server';
import { fill, renderApp } from '@/testing/render-app';
import { fixturePackage } from '../testing/package-test-utils';

/** Decision 178: a package list with a GENERATING row reads itself again until the row moved on. */

const NAME = 'IP-3.2.1 bench build'; // pk-approve-dev: a development package, unsigned
const rowOf = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;
const tab = (name: string) => screen.getByRole('tab', { name: new RegExp(`^${name}( \\d+)?$`) });
/** One refresh interval of the fake clock, and what it set off. */
const nextTick = () => act(() => vi.advanceTimersByTimeAsync(REFRESH_MS));

/** How many times a package list was read so far. */
function countReads(): () => number {
  let reads = 0;
  server.events.on('request:start', ({ request }) => {
    if (request.method === 'GET' && /\/packages(\?.*)?$/.test(request.url)) reads += 1;
  });
  return () => reads;
}

/** Every popup shown while the test runs. */
function watchPopups(): Popup[] {
  const shown: Popup[] = [];
  popups.subscribe(() => {
    const p = popups.get();
    if (p) shown.push(p);
  });
  return shown;
}

describe('a package list while a package is generated (decision 178)', () => {
  beforeEach(() => {
    // the fake clock also moves with real time, so testing-library's own waiting works as usual
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
    server.events.removeAllListeners();
  });

  it('shows Generating… with the bytes done of the total, then the new state, by itself', async () => {
    const gen = await generating(fixturePackage('pk-approve-dev'));
    renderApp('/packages', { as: 'u-lead' });
    await screen.findByText(NAME);
    expect(within(rowOf(NAME)).getByTestId('generating-label')).toHaveTextContent(
      'Generating… 0.0 MiB of 4.0 MiB',
    );
    await gen.progress(2 * 1024 * 1024);
    await nextTick();
    await waitFor(() =>
      expect(within(rowOf(NAME)).getByTestId('generating-label')).toHaveTextContent(
        'Generating… 2.0 MiB of 4.0 MiB',
      ),
    );
    await gen.finish();
    await nextTick();
    await waitFor(() => expect(within(rowOf(NAME)).queryByTestId('generating-label')).toBeNull());
    expect(within(rowOf(NAME)).getByText('Approved')).toBeInTheDocument();
    expect(within(rowOf(NAME)).queryByTestId('generation-failed')).toBeNull();
  });

  it('stops reading once no row is GENERATING, and never shows the loader for a background read', async () => {
    const gen = await generating(fixturePackage('pk-approve-dev'));
    const reads = countReads();
    renderApp('/packages', { as: 'u-lead' });
    await screen.findByText(NAME);
    await waitFor(() => expect(loader.isLoading()).toBe(false));
    let loaderShown = 0;
    const stop = loader.subscribe(() => {
      if (loader.isLoading()) loaderShown += 1;
    });
    try {
      await nextTick();
      await gen.finish();
      await nextTick();
      await waitFor(() => expect(within(rowOf(NAME)).getByText('Approved')).toBeInTheDocument());
      const readsThen = reads();
      for (let i = 0; i < 3; i++) await nextTick();
      expect(reads()).toBe(readsThen);
      expect(loaderShown).toBe(0);
    } finally {
      stop();
    }
  });

  it('keeps the tab and the search while it refreshes', async () => {
    const gen = await generating(fixturePackage('pk-sign-rel')); // VC-1.7.2 final, release
    session.update({ flowPurpose: 'release' });
    renderApp('/packages', { as: 'u-lead' });
    await screen.findByText('VC-1.7.2 final');
    fill(screen.getByLabelText('Search'), 'final');
    await nextTick();
    await gen.finish();
    await nextTick();
    await waitFor(() => expect(within(rowOf('VC-1.7.2 final')).getByText('Signed')).toBeInTheDocument());
    expect(tab(MSG.tabRelease)).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByLabelText('Search')).toHaveValue('final');
    expect(screen.getByText(/^\d+-\d+ of \d+$/).textContent).toBe('1-1 of 1');
  });

  it('shows a failed generation as the state it went back to, with the reason', async () => {
    const reason = 'The artefact store was not reachable; try again';
    const gen = await generating(fixturePackage('pk-approve-dev'));
    renderApp('/packages', { as: 'u-lead' });
    await screen.findByText(NAME);
    expect(within(rowOf(NAME)).getByTestId('generating-label')).toBeInTheDocument();
    await nextTick();
    await gen.fail(reason);
    await nextTick();
    await waitFor(() =>
      expect(within(rowOf(NAME)).getByTestId('generation-failed')).toHaveTextContent(
        `Generation failed: ${reason}`,
      ),
    );
    expect(within(rowOf(NAME)).getByText('Awaiting approval')).toBeInTheDocument();
    expect(within(rowOf(NAME)).queryByTestId('generating-label')).toBeNull();
  });

  it('stays silent when a background read fails, says so once if it keeps failing, and goes on', async () => {
    const gen = await generating(fixturePackage('pk-approve-dev'));
    let failing = false;
    server.use(
      http.get(/\/dev\/packages(\?.*)?$/, () =>
        failing ? HttpResponse.json({ errorMessage: 'Service unavailable' }, { status: 503 }) : undefined,
      ),
    );
    const shown = watchPopups();
    renderApp('/packages', { as: 'u-lead' });
    await screen.findByText(NAME);
    failing = true;
    await nextTick();
    await nextTick();
    expect(shown).toEqual([]);
    await nextTick();
    await waitFor(() => expect(shown.map((p) => p.message)).toEqual([REFRESH_FAILING_MESSAGE]));
    for (let i = 0; i < 3; i++) await nextTick();
    expect(shown).toHaveLength(1);
    // the row still shows what the last good answer said, and the next good answer moves it on
    expect(within(rowOf(NAME)).getByTestId('generating-label')).toBeInTheDocument();
    await gen.finish();
    failing = false;
    await nextTick();
    await nextTick();
    await waitFor(() => expect(within(rowOf(NAME)).getByText('Approved')).toBeInTheDocument());
    expect(shown).toHaveLength(1);
  });

  it('ends the refreshing with the session-timeout popup, once, when the session is over', async () => {
    await generating(fixturePackage('pk-approve-dev'));
    let expired = false;
    let refused = 0;
    server.use(
      http.get(/\/dev\/packages(\?.*)?$/, () => {
        if (!expired) return undefined;
        refused += 1;
        return HttpResponse.json({ errorMessage: 'Unauthorized' }, { status: 401 });
      }),
    );
    const shown = watchPopups();
    renderApp('/packages', { as: 'u-lead' });
    await screen.findByText(NAME);
    expired = true;
    await nextTick();
    await waitFor(() => expect(shown.map((p) => p.kind)).toEqual(['session']));
    for (let i = 0; i < 3; i++) await nextTick();
    expect(refused).toBe(1);
    expect(shown).toHaveLength(1);
  });

  it("shows a failed generation's reason in the decider's approval list too", async () => {
    const reason = 'The generation stopped without a reason (it ran out of time or memory)';
    const pkg = fixturePackage('pk-approve-dev');
    await replacePackage({
      ...pkg,
      generation: {
        jobId: 'job-1',
        state: 'FAILED',
        from: 'PENDING_APPROVAL',
        requestedBy: pkg.initiator,
        requestedAt: '2024-05-02T10:15:00.000Z',
        bytesDone: 0,
        bytesTotal: 1024,
        reason,
        failedAt: '2024-05-02T10:16:00.000Z',
      },
    });
    renderApp('/packages/approve', { as: 'u-lead' });
    await screen.findByText(NAME);
    expect(within(rowOf(NAME)).getByTestId('generation-failed')).toHaveTextContent(
      `Generation failed: ${reason}`,
    );
  });

  it('pauses while the browser tab is hidden and refreshes at once when it is visible again', async () => {
    await generating(fixturePackage('pk-approve-dev'));
    const reads = countReads();
    renderApp('/packages', { as: 'u-lead' });
    await screen.findByText(NAME);
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    const readsThen = reads();
    for (let i = 0; i < 3; i++) await nextTick();
    expect(reads()).toBe(readsThen);
    visibility.mockReturnValue('visible');
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await waitFor(() => expect(reads()).toBe(readsThen + 1));
    visibility.mockRestore();
  });

  it('stops when the list is left', async () => {
    await generating(fixturePackage('pk-approve-dev'));
    const reads = countReads();
    const { unmount } = renderApp('/packages', { as: 'u-lead' });
    await screen.findByText(NAME);
    await nextTick();
    await waitFor(() => expect(reads()).toBe(2));
    unmount();
    for (let i = 0; i < 3; i++) await nextTick();
    expect(reads()).toBe(2);
  });
});
