import type { Package } from '@shared/api/contracts/packages';
import { sbomKeyOf } from '@shared/api/contracts/provenance';
import type { PackageChanges } from '@shared/domain/package-changes';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { setToken } from '@/lib/session/token-cookie';
import { memoryBackend, replacePackage, tokenOf } from '@/testing/backend/server';
import { captureDownloads, fixturePackage } from '../testing/package-test-utils';
import { ChangesBody } from './changes-panel';
import { NO_PROVENANCE, NO_SBOM, ProvenanceCard } from './provenance-card';

/** the review page shows where the build came from and what it is made of. */

const SBOM_TEXT =
  '{"bomFormat":"CycloneDX","specVersion":"1.5","components":[{"name":"mbedtls","version":"3.5.1"}]}';
const SBOM_SHA = 'e'.repeat(64);

async function digest(text: string) {
  const d = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function withProvenance(sha256 = SBOM_SHA): Package {
  const pkg = fixturePackage('pk-approve-dev');
  return {
    ...pkg,
    resourceFile: {
      ...pkg.resourceFile!,
      provenance: {
        repository: 'https://git.example.com/pumps/fw',
        commit: '9f2c1e7b4a5d6c8e0f1a2b3c4d5e6f708192a3b4',
        buildId: '812',
        buildUrl: 'https://ci.example.com/builds/812',
        builder: 'runner fw-build-03',
        sha256: 'a'.repeat(64),
      },
      sbom: {
        format: 'CycloneDX',
        specVersion: '1.5',
        componentCount: 14,
        topComponents: [
          { name: 'mbedtls', version: '3.5.1', purl: 'pkg:github/Mbed-TLS/mbedtls@v3.5.1' },
          { name: 'cmsis-core' },
        ],
        subject: { name: 'pump-controller', version: '4.2.0' },
        fileName: 'pump.cdx.json',
        sizeBytes: new TextEncoder().encode(SBOM_TEXT).length,
        sha256,
      },
    },
  };
}

const value = (list: HTMLElement, label: string) => within(list).getByText(label).nextElementSibling;

describe('build provenance card', () => {
  it('shows repository, the short commit with the full one on hover, the build link and the builder', () => {
    render(<ProvenanceCard pkg={withProvenance()} />);
    const dl = screen.getByLabelText('Build provenance details');
    expect(value(dl, 'Repository')).toHaveTextContent('https://git.example.com/pumps/fw');
    const commit = within(dl).getByTitle('9f2c1e7b4a5d6c8e0f1a2b3c4d5e6f708192a3b4');
    expect(commit).toHaveTextContent(/^9f2c1e7b4a5d$/);
    const link = within(dl).getByRole('link', { name: '812' });
    expect(link).toHaveAttribute('href', 'https://ci.example.com/builds/812');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(value(dl, 'Builder')).toHaveTextContent('runner fw-build-03');
  });

  it('copies the full commit', async () => {
    const user = userEvent.setup();
    render(<ProvenanceCard pkg={withProvenance()} />);
    await user.click(screen.getByRole('button', { name: /Copy the full commit/ }));
    expect(await navigator.clipboard.readText()).toBe('9f2c1e7b4a5d6c8e0f1a2b3c4d5e6f708192a3b4');
    expect(screen.getByRole('button', { name: /Copy the full commit/ })).toHaveTextContent('Copied');
  });

  it('shows the SBOM: format, component count, the top-level components and what it describes', () => {
    render(<ProvenanceCard pkg={withProvenance()} />);
    const dl = screen.getByLabelText('SBOM details');
    expect(value(dl, 'Format')).toHaveTextContent('CycloneDX 1.5');
    expect(value(dl, 'Components')).toHaveTextContent('14');
    expect(value(dl, 'Describes')).toHaveTextContent('pump-controller 4.2.0');
    expect(value(dl, 'SHA-256')).toHaveTextContent(SBOM_SHA);
    const list = screen.getByRole('list', { name: 'Top-level components' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['mbedtls 3.5.1', 'cmsis-core', 'and 12 more in the file']);
  });

  it('says so when the package has no provenance and no SBOM', () => {
    render(<ProvenanceCard pkg={fixturePackage('pk-approve-dev')} />);
    const notes = screen.getAllByRole('note').map((n) => n.textContent);
    expect(notes).toEqual([NO_PROVENANCE, NO_SBOM]);
    expect(screen.queryByRole('button', { name: 'Download SBOM' })).not.toBeInTheDocument();
  });

  it('downloads the pinned SBOM from the server and saves it when it hashes to the pin', async () => {
    const pkg = withProvenance(await digest(SBOM_TEXT));
    await replacePackage(pkg);
    await memoryBackend().blobs.put(
      'resources',
      sbomKeyOf(pkg.resourceId),
      new TextEncoder().encode(SBOM_TEXT),
    );
    setToken(tokenOf('u-lead'));
    const saved = captureDownloads();
    const user = userEvent.setup();
    render(<ProvenanceCard pkg={pkg} />);
    await user.click(screen.getByRole('button', { name: 'Download SBOM' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.name).toBe('pump.cdx.json');
    expect(await saved[0]!.blob.text()).toBe(SBOM_TEXT);
  });
});

describe('changes since the last approved package: build provenance and SBOM', () => {
  const changes = (over: Partial<PackageChanges>): PackageChanges => ({
    packageId: 'p-new',
    resourceType: 'PATCH',
    deviceId: 'DEV-7',
    previous: { id: 'p-old', name: 'fw 1.0', status: 'SIGNED', type: 'DEV_SIGNED', resourceName: 'fw.bin' },
    header: [],
    lists: [],
    files: [],
    dcc: [],
    headerCompared: true,
    ...over,
  });

  it('lists the SBOM digests and the commit and component count that differ', () => {
    render(
      <MemoryRouter>
        <ChangesBody
          changes={changes({
            files: [
              {
                file: 'sbom',
                old: { fileName: 'bom.json', sizeBytes: 10, sha256: 'a'.repeat(64) },
                new: { fileName: 'bom.json', sizeBytes: 12, sha256: 'b'.repeat(64) },
                sameDigest: false,
                sameSize: false,
              },
            ],
            build: [
              { field: 'commit', old: 'abc1234', new: 'def5678' },
              { field: 'sbomComponents', old: 3, new: 5 },
            ],
          })}
        />
      </MemoryRouter>,
    );
    const sbom = screen.getByRole('list', { name: 'SBOM file' });
    expect(sbom).toHaveTextContent('SBOM — changed');
    expect(sbom).toHaveTextContent(`was: 10 bytes, SHA-256 ${'a'.repeat(64)}`);
    const build = screen.getByRole('list', { name: 'Build provenance differences' });
    expect(
      within(build)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Commit: abc1234 → def5678', 'SBOM components: 3 → 5']);
    expect(screen.getByRole('list', { name: 'Payload and metadata' })).not.toHaveTextContent('SBOM');
  });

  it('says the build is the same, and shows nothing for an answer from a server older than build provenance', () => {
    const { unmount } = render(
      <MemoryRouter>
        <ChangesBody changes={changes({ build: [] })} />
      </MemoryRouter>,
    );
    expect(
      screen.getByText("The build provenance and the SBOM's format and component count are the same."),
    ).toBeInTheDocument();
    unmount();
    render(
      <MemoryRouter>
        <ChangesBody changes={changes({})} />
      </MemoryRouter>,
    );
    expect(screen.queryByText('Build provenance and SBOM')).not.toBeInTheDocument();
  });
});
