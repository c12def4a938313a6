import { MSG } from '@shared/messages';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { server } from '@/testing/mocks/server';
import { atPath, captureDownloads, fixturePackage, openWith } from '../testing/package-test-utils';

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

  it('titles a delivered package RELEASE PACKAGE DELIVERY', async () => {
    openWith('/packages/download', { as: 'u-lead', pkg: 'pk-delivered', flow: 'approve-delivery' });
    expect(await screen.findByRole('heading', { name: MSG.releasePackageDelivery })).toBeInTheDocument();
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

  it('follows the presigned URL of a large package', async () => {
    const saved = captureDownloads();
    openWith('/packages/download', { as: 'u-lead', pkg: 'pk-large', flow: 'approve' });
    fireEvent.click(await screen.findByRole('button', { name: MSG.download }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.name).toBe('Defib_self-test_5.1.0_full_image.xml');
    expect(await saved[0]?.blob.text()).toContain('<package');
    expect(await screen.findByText('verified')).toBeInTheDocument();
  });

  it('shows what storage said when the presigned URL fails', async () => {
    const saved = captureDownloads();
    server.use(
      http.get(
        '/mock-storage/artefacts/:file',
        () =>
          new HttpResponse('<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>', {
            status: 403,
            headers: { 'Content-Type': 'application/xml' },
          }),
      ),
    );
    openWith('/packages/download', { as: 'u-lead', pkg: 'pk-large', flow: 'approve' });
    fireEvent.click(await screen.findByRole('button', { name: MSG.download }));
    expect(
      await screen.findByText(`${MSG.internalErrorPrefix}AccessDenied: Request has expired`),
    ).toBeInTheDocument();
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
