import { MSG } from '@shared/messages';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { session } from '@/lib/session/session-store';
import { memoryBackend, server } from '@/testing/backend/server';
import { fill, renderApp } from '@/testing/render-app';
import { buildText } from './resource-selection-page';

const table = () => screen.findByRole('table');
const headers = async () =>
  within(await table())
    .getAllByRole('columnheader')
    .map((h) => h.textContent?.replace(/[▲▼↕]/g, '').trim())
    .filter((h) => h && h !== 'Selected');
const range = () => screen.getByText(/^\d+-\d+ of \d+$/).textContent;

describe('patches page', () => {
  it('lists Dev patches with Resource name, Upload time and Uploaded by', async () => {
    renderApp('/patches', { as: 'u-lead' });
    expect(await screen.findByText('infusion-pump-fw-3.2.1')).toBeInTheDocument();
    // the spec's columns, and the build provenance / SBOM attached
    expect(await headers()).toEqual(['Resource name', 'Upload time', 'Uploaded by', 'Build']);
    expect(range()).toBe('1-5 of 7');
  });

  it('loads the Release patches on the Release tab and resets search and page', async () => {
    const { user } = renderApp('/patches', { as: 'u-lead' });
    await screen.findByText('infusion-pump-fw-3.2.1');
    fill(screen.getByLabelText('Search'), 'pump');
    await user.click(screen.getByRole('tab', { name: MSG.stageRelease }));
    expect(await screen.findByText('ventilator-ctrl-1.7.2')).toBeInTheDocument();
    expect(screen.getByLabelText('Search')).toHaveValue('');
    expect(range()).toBe('1-2 of 2');
  });

  it('reads one page at a time: page, search and sort go to the server, a selection outlives its page (decision 221)', async () => {
    const asked: string[] = [];
    const onRequest = ({ request }: { request: Request }) => {
      const url = new URL(request.url);
      if (url.pathname.endsWith('/dev/resources/patch/dev')) asked.push(url.searchParams.toString());
    };
    server.events.on('request:start', onRequest);
    try {
      const { user } = renderApp('/patches', { as: 'u-lead' });
      await user.click(await screen.findByText('infusion-pump-fw-3.2.1'));
      expect(screen.getByRole('button', { name: MSG.createPackage })).toBeEnabled();
      await user.click(screen.getByRole('button', { name: 'Next page' }));
      await waitFor(() => expect(range()).toBe('6-7 of 7'));
      expect(asked).toContain('offset=5&limit=5');
      // the patch chosen on page 1 is still the one 'Create Package' takes
      expect(screen.getByRole('button', { name: MSG.createPackage })).toBeEnabled();
      await user.click(screen.getByRole('button', { name: /^Resource name/ }));
      fill(screen.getByLabelText('Search'), 'PUMP');
      await waitFor(() => expect(asked.at(-1)).toBe('offset=0&limit=5&search=PUMP&sort=name&order=asc'));
    } finally {
      server.events.removeListener('request:start', onRequest);
    }
  });

  it('an empty patch list points to Upload', async () => {
    // no resources stored (their packages first: a resource in use cannot be deleted)
    const b = memoryBackend();
    for (const p of await b.packages.listAll()) await b.packages.delete(p);
    for (const r of await b.resources.listAll()) expect(await b.resources.delete(r)).toBe('ok');
    renderApp('/patches', { as: 'u-dev' });
    expect(await screen.findByText('No dev patches yet.')).toBeInTheDocument();
    const note = await screen.findByTestId('empty-resources');
    expect(note).toHaveTextContent(
      'No dev patches are uploaded yet. Upload a patch first, then create a package from it here.',
    );
    expect(within(note).getByRole('link', { name: 'Upload a patch' })).toHaveAttribute('href', '/upload');
  });

  it('searches patches by upload time', async () => {
    renderApp('/patches', { as: 'u-lead' });
    await screen.findByText('infusion-pump-fw-3.2.1');
    fill(screen.getByLabelText('Search'), '2024-04');
    await waitFor(() => expect(range()).toBe('1-2 of 2'));
  });

  it("enables 'Create Package' once a patch is selected and opens the development package title", async () => {
    const { user, router } = renderApp('/patches', { as: 'u-dev' });
    const button = await screen.findByRole('button', { name: MSG.createPackage });
    expect(button).toBeDisabled();
    await user.click(await screen.findByText('ventilator-ctrl-1.8.0'));
    expect(button).toBeEnabled();
    await user.click(button);
    await waitFor(() => expect(router.state.location.pathname).toBe('/packages/create'));
    expect(await screen.findByRole('heading', { name: MSG.generateDevPackageTitle })).toBeInTheDocument();
    expect(session.get()).toMatchObject({ flowPurpose: 'dev', resource: { name: 'ventilator-ctrl-1.8.0' } });
  });

  it('keeps a single selection', async () => {
    const { user } = renderApp('/patches', { as: 'u-dev' });
    await user.click(await screen.findByText('infusion-pump-fw-3.2.1'));
    await user.click(screen.getByText('infusion-pump-fw-3.2.2'));
    expect(screen.getAllByRole('radio', { checked: true })).toHaveLength(1);
    expect(screen.getByRole('radio', { name: 'Select infusion-pump-fw-3.2.2' })).toBeChecked();
  });
});

describe('models page', () => {
  it('lists models with Resource name, Model name and Version', async () => {
    renderApp('/models', { as: 'u-lead' });
    expect(await screen.findByText('ArrhythmiaNet')).toBeInTheDocument();
    expect(await headers()).toEqual(['Resource name', 'Model name', 'Version', 'Build']);
  });

  it('switches between patches and models with the Patch/Model switch', async () => {
    const { user, router } = renderApp('/models', { as: 'u-lead' });
    await screen.findByText('ArrhythmiaNet');
    await user.click(screen.getByRole('button', { name: MSG.tabPatch }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/patches'));
    // the patches page itself, not the models page still on screen while the route's chunk loads
    await screen.findByText('infusion-pump-fw-3.2.1');
    await user.click(await screen.findByRole('button', { name: MSG.tabModel }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/models'));
  });

  it('opens the release package title from the Release tab', async () => {
    const { user } = renderApp('/models', { as: 'u-dev' });
    await screen.findByText('ArrhythmiaNet');
    await user.click(screen.getByRole('tab', { name: MSG.stageRelease }));
    await user.click(await screen.findByText('arrhythmia-detector-rc'));
    await user.click(screen.getByRole('button', { name: MSG.createPackage }));
    expect(await screen.findByRole('heading', { name: MSG.generateReleasePackageTitle })).toBeInTheDocument();
    expect(session.get().flowPurpose).toBe('release');
  });
});

describe('the Build column', () => {
  const base = {
    id: 'r',
    name: 'fw',
    resourceStage: 'DEV',
    resourceType: 'PATCH',
    uploadTime: '2026-01-01 00:00:00',
    uploadedBy: { id: 'u', name: 'U' },
    fileName: 'fw.bin',
    sizeBytes: 1,
    sha256: 'a',
  } as const;

  it('says which of provenance and SBOM the resource has', () => {
    expect(buildText(base)).toBe('—');
    const provenance = {
      repository: 'r',
      commit: '9f2c1e7b4a5d6c8e0f1a',
      buildId: '1',
      buildUrl: 'https://ci/1',
      builder: 'b',
      sha256: 'p',
    };
    const sbom = {
      format: 'CycloneDX' as const,
      specVersion: '1.5',
      componentCount: 1234,
      topComponents: [],
      fileName: 'bom.json',
      sizeBytes: 1,
      sha256: 's',
    };
    expect(buildText({ ...base, provenance })).toBe('commit 9f2c1e7b4a5d');
    expect(buildText({ ...base, provenance, sbom })).toBe('commit 9f2c1e7b4a5d, SBOM 1,234 components');
  });
});
