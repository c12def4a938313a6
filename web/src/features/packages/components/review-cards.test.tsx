import { MSG } from '@shared/messages';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { metadataPinOf } from '@/testing/mocks/fixtures';
import { fixturePackage, fixtureResource, openWith } from '../testing/package-test-utils';
import { DccCard, FileCard, formatFileSize, METADATA_NOT_PINNED } from './review-cards';

/** the review page shows what an approver certifies. */

const value = (list: HTMLElement, label: string) => within(list).getByText(label).nextElementSibling;

describe('DCC card', () => {
  it('shows the attached DCC: device id, telemetry type and both limits', () => {
    render(<DccCard pkg={fixturePackage('pk-approve-dev')} />);
    const dl = screen.getByLabelText('DCC values');
    expect(value(dl, MSG.colDeviceId)).toHaveTextContent('IP-4000');
    expect(value(dl, MSG.colTelemetryType)).toHaveTextContent('TelA');
    expect(value(dl, MSG.colMessageLimit)).toHaveTextContent('256 bytes');
    expect(value(dl, MSG.colDeviceLimit)).toHaveTextContent('4,096 bytes');
    expect(screen.getByText('DCC id: d-1')).toBeInTheDocument();
  });

  it('says so when no DCC is attached, and when the values were not recorded', () => {
    const draft = fixturePackage('p-1');
    const { unmount } = render(<DccCard pkg={draft} />);
    expect(screen.getByRole('note')).toHaveTextContent('No DCC is attached to this package yet.');
    unmount();
    const older = { ...fixturePackage('pk-approve-dev'), dcc: undefined };
    render(<DccCard pkg={older} />);
    expect(screen.getByRole('note')).toHaveTextContent('The DCC values were not recorded on this package');
    expect(screen.queryByLabelText('DCC values')).not.toBeInTheDocument();
  });
});

describe('file card', () => {
  it('a patch: resource name, file name, exact size and the full SHA-256', () => {
    const pkg = fixturePackage('pk-approve-dev');
    const res = fixtureResource('r-p1');
    render(<FileCard pkg={pkg} />);
    const dl = screen.getByLabelText('Patch file details');
    expect(value(dl, MSG.resourceName)).toHaveTextContent(pkg.resourceName);
    expect(value(dl, 'File name')).toHaveTextContent(res.fileName);
    expect(value(dl, 'Size')).toHaveTextContent(`${res.sizeBytes.toLocaleString('en-US')} bytes`);
    expect(value(dl, 'SHA-256')).toHaveTextContent(res.sha256);
    expect(within(dl).queryByText('Model name')).not.toBeInTheDocument();
  });

  it('a model adds the model name and version from its metadata', () => {
    render(<FileCard pkg={fixturePackage('pk-delivered')} />);
    const dl = screen.getByLabelText('Model file details');
    expect(value(dl, 'Model name')).toHaveTextContent('ArrhythmiaNet');
    expect(value(dl, 'Model version')).toHaveTextContent('2.2');
  });

  it('a model shows its metadata file beside the payload: exact size and the full SHA-256 (decision 190)', () => {
    const pkg = fixturePackage('pk-delivered');
    const pin = metadataPinOf(fixtureResource('r-m3'));
    render(<FileCard pkg={pkg} />);
    const dl = screen.getByLabelText('Model file details');
    expect(value(dl, 'SHA-256')).toHaveTextContent(pkg.resourceFile!.sha256);
    expect(value(dl, 'Metadata size')).toHaveTextContent(`${pin.sizeBytes} bytes`);
    expect(value(dl, 'Metadata SHA-256')).toHaveTextContent(pin.sha256);
  });

  it('a model package made before the metadata digest was recorded says so; a patch shows no metadata', () => {
    const pkg = fixturePackage('pk-delivered');
    const older = {
      ...pkg,
      resourceFile: { ...pkg.resourceFile!, metadataSha256: undefined, metadataSizeBytes: undefined },
    };
    const { unmount } = render(<FileCard pkg={older} />);
    expect(value(screen.getByLabelText('Model file details'), 'Metadata SHA-256')).toHaveTextContent(
      METADATA_NOT_PINNED,
    );
    unmount();
    render(<FileCard pkg={fixturePackage('pk-approve-dev')} />);
    expect(within(screen.getByLabelText('Patch file details')).queryByText('Metadata SHA-256')).toBeNull();
  });

  it('says so when the file facts were not recorded', () => {
    render(<FileCard pkg={{ ...fixturePackage('pk-approve-dev'), resourceFile: undefined }} />);
    expect(screen.getByRole('note')).toHaveTextContent("The file's size and SHA-256 were not recorded");
  });

  it('sizes: exact bytes, with KiB or MiB beside them', () => {
    expect(formatFileSize(512)).toBe('512 bytes');
    expect(formatFileSize(183_000)).toBe('183,000 bytes (178.7 KiB)');
    expect(formatFileSize(5 * 1024 * 1024)).toBe('5,242,880 bytes (5.0 MiB)');
  });
});

describe('the review pages show both cards and keep the actions in the action bar', () => {
  it('details page of an approval', async () => {
    openWith('/packages/approve/view', { as: 'u-lead', pkg: 'pk-approve-dev', flow: 'approve' });
    const bar = await screen.findByRole('region', { name: 'Package actions' });
    for (const name of [MSG.cancel, MSG.reject, MSG.continue])
      expect(within(bar).getByRole('button', { name })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Patch file' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /^DCC/ })).toBeInTheDocument();
    expect(screen.getByText(fixtureResource('r-p1').sha256)).toBeInTheDocument();
  });

  it('header view of a signing: Back, Reject and Sign in the bar, with what signing records', async () => {
    openWith('/packages/header/view', { as: 'u-sw', pkg: 'pk-sign-dev', flow: 'sign' });
    const bar = await screen.findByRole('region', { name: 'Package actions' });
    expect(await within(bar).findByRole('button', { name: MSG.sign })).toBeInTheDocument();
    expect(within(bar).getByRole('button', { name: MSG.reject })).toBeInTheDocument();
    expect(within(bar).getByRole('button', { name: MSG.back })).toBeInTheDocument();
    expect(bar).toHaveTextContent('Signing generates the signed package file');
    expect(screen.getByLabelText('DCC values')).toBeInTheDocument();
    expect(screen.getByLabelText('Patch file details')).toBeInTheDocument();
  });
});
