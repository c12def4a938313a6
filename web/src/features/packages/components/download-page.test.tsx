import { MSG } from '@shared/messages';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MEMORY_STORAGE_URL, memoryBackend, server } from '@/testing/backend/server';
import { atPath, captureDownloads, fixturePackage, openWith } from '../testing/package-test-utils';
import { STATEMENT_DOWNLOAD } from './download-page';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('download page (spec §2.8)', () => {
  it("shows the flow's title, 'Success!', Download and Done (to /home)", async () => {
    const { router } = openWith('/packages/download', { as: 'u-sw', pkg: 'p-3', flow: 'sign' });
    expect(
      await screen.findByRole('heading', { name: MSG.generatedSignedReleasePackageTitle }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: MSG.success })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: MSG.download })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: MSG.done }));
    await atPath(router, '/home');
  });

  it('titles a delivered package RELEASE PACKAGE DELIVERY and says it is delivered', async () => {
    openWith('/packages/download', { as: 'u-lead', pkg: 'pk-delivered', flow: 'approve-delivery' });
    expect(await screen.findByRole('heading', { name: MSG.releasePackageDelivery })).toBeInTheDocument();
    expect(screen.getByTestId('what-happened')).toHaveTextContent(
      'is delivered: every delivery approver approved its delivery to devices.',
    );
    expect(screen.getByTestId('what-next')).toHaveTextContent('Nothing more waits on it.');
  });

  it('shows the package and what happens next, never a storage key', async () => {
    openWith('/packages/download', { as: 'u-sw', pkg: 'p-3', flow: 'sign' });
    await screen.findByRole('heading', { name: MSG.success });
    const page = screen.getByRole('region', { name: MSG.generatedSignedReleasePackageTitle });
    expect(page).not.toHaveTextContent(/Storage key|packages\/p-3\//);
    expect(screen.getByLabelText('Package')).toHaveTextContent(/StateSigned/);
    expect(screen.getByTestId('what-happened')).toHaveTextContent(/signed and its package file is generated/);
    expect(screen.getByTestId('what-next')).toHaveTextContent(
      'A release engineer can now send it to its delivery approvers for delivery to devices.',
    );
  });

  it('saves the provenance statement of a signed package beside it', async () => {
    const saved = captureDownloads();
    openWith('/packages/download', { as: 'u-sw', pkg: 'p-3', flow: 'sign' });
    fireEvent.click(await screen.findByRole('button', { name: STATEMENT_DOWNLOAD }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.name).toMatch(/\.provenance-statement\.json$/);
    expect(saved[0]?.blob.type).toBe('application/json');
    const envelope = JSON.parse(await saved[0]!.blob.text());
    expect(envelope.payloadType).toBe('application/vnd.in-toto+json');
  });

  it('shows no provenance statement button for an unsigned package', async () => {
    openWith('/packages/download', { as: 'u-lead', pkg: 'p-4', flow: 'approve' });
    await screen.findByRole('heading', { name: MSG.generatedReleasePackageTitle });
    expect(screen.getByRole('button', { name: MSG.download })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: STATEMENT_DOWNLOAD })).toBeNull();
  });

  it('saves the XML file named after the package, with its checked SHA-256', async () => {
    const saved = captureDownloads();
    openWith('/packages/download', { as: 'u-lead', pkg: 'p-4', flow: 'approve' });
    expect(
      await screen.findByRole('heading', { name: MSG.generatedReleasePackageTitle }),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: MSG.download }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.name).toBe('ArrhythmiaNet_2.2.xml');
    expect(saved[0]?.blob.type).toBe('application/xml');
    expect(await screen.findByText('verified')).toBeInTheDocument();
    expect(screen.getByText('ArrhythmiaNet_2.2.xml')).toBeInTheDocument();
  });

  it('lets the browser download a large package from its presigned URL, never reading it into memory', async () => {
    const saved = captureDownloads();
    const storageReads: string[] = [];
    const onRequest = ({ request }: { request: Request }) => {
      if (request.url.startsWith(MEMORY_STORAGE_URL)) storageReads.push(request.url);
    };
    server.events.on('request:start', onRequest);
    try {
      openWith('/packages/download', { as: 'u-lead', pkg: 'pk-large', flow: 'approve' });
      fireEvent.click(await screen.findByRole('button', { name: MSG.download }));
      await waitFor(() => expect(saved.followed).toHaveLength(1));
      // a link to the presigned URL, clicked: the browser streams the file to disk
      expect(saved.followed[0]?.href).toMatch(
        // the pinned version of the file (decision 302), as in AWS
        /^https:\/\/memory-storage\.test\/artefacts\/packages\/pk-large\/\d+\.xml\?versionId=[\w.]+$/,
      );
      expect(saved.followed[0]?.name).toBe('Defib_self-test_5.1.0_full_image.xml');
      expect(saved).toHaveLength(0);
      expect(storageReads).toEqual([]);
      // its SHA-256 is shown for the user to check; this browser never held the bytes to hash them
      expect(await screen.findByText('not checked by this browser')).toBeInTheDocument();
      expect(screen.getByText('Defib_self-test_5.1.0_full_image.xml')).toBeInTheDocument();
    } finally {
      server.events.removeListener('request:start', onRequest);
    }
  });

  it('shows the refusal plainly when the stored file is not the one generated, and saves nothing (decision 302)', async () => {
    const artefact = (await memoryBackend().packages.get('p-4'))!.artefact!;
    // someone wrote other bytes over the stored file (the web tests' storage keeps versions, as in AWS)
    await memoryBackend().artefacts.files.put(
      'artefacts',
      artefact.key,
      new TextEncoder().encode('<package id="another"/>'),
    );
    const saved = captureDownloads();
    openWith('/packages/download', { as: 'u-lead', pkg: 'p-4', flow: 'approve' });
    fireEvent.click(await screen.findByRole('button', { name: MSG.download }));
    expect(
      await screen.findByText(
        /^The stored package file does not match the one generated on .+ \(another version of it was written to storage after it was generated\); it was not served — tell an admin$/,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Internal server error/)).toBeNull();
    expect(saved).toHaveLength(0);
  });

  it('shows the refusal of a provenance statement that is not the one signed plainly, and saves nothing', async () => {
    const artefact = (await memoryBackend().packages.get('p-3'))!.artefact!;
    memoryBackend().artefacts.swap(artefact.key, 'statement');
    const saved = captureDownloads();
    openWith('/packages/download', { as: 'u-sw', pkg: 'p-3', flow: 'sign' });
    fireEvent.click(await screen.findByRole('button', { name: STATEMENT_DOWNLOAD }));
    expect(
      await screen.findByText(
        /^The stored provenance statement does not match the one signed on .+; it was not served — tell an admin$/,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Internal server error/)).toBeNull();
    expect(saved).toHaveLength(0);
  });

  it("shows the server's reason when the file is not generated yet", async () => {
    const saved = captureDownloads();
    openWith('/packages/download', { as: 'u-lead', pkg: fixturePackage('pk-approve-dev'), flow: 'approve' });
    fireEvent.click(await screen.findByRole('button', { name: MSG.download }));
    expect(await screen.findByText(/has no generated file yet/)).toBeInTheDocument();
    expect(saved).toHaveLength(0);
  });
});
