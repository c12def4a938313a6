import { MSG } from '@shared/messages';
import { fireEvent, screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { session } from '@/lib/session/session-store';
import { server } from '@/testing/backend/server';
import { fill, renderApp } from '@/testing/render-app';
import { atPath, fixtureResource } from '../testing/package-test-utils';
import { defaultPackageName } from './create-package-page';

function openCreate(resourceId = 'r-p8', title: string = MSG.generateReleasePackageTitle) {
  const resource = fixtureResource(resourceId);
  session.update({
    resource,
    flowPurpose: resource.resourceStage === 'RELEASE' ? 'release' : 'dev',
    subHeader: title,
  });
  return renderApp('/packages/create', { as: 'u-dev' });
}

const nameField = () => screen.getByLabelText(MSG.colPackageName);
const noteField = () => screen.getByLabelText(MSG.colNote);
const continueButton = () => screen.getByRole('button', { name: MSG.continue });
const COPY_LABEL = 'Copy the header and DCC from an earlier package';

describe('package creation (spec §2.8, §5)', () => {
  it('prefills the name from the patch name and upload time, or the model name and version', () => {
    expect(defaultPackageName(fixtureResource('r-p1'))).toBe('infusion-pump-fw-3.2.1_2024-03-04 09:12:44');
    expect(defaultPackageName(fixtureResource('r-m1'))).toBe('ArrhythmiaNet_2.3');
  });

  it('shows the title, the prefilled name, the read-only resource name and upload time, and Sign?', async () => {
    openCreate();
    expect(await screen.findByRole('heading', { name: MSG.generateReleasePackageTitle })).toBeInTheDocument();
    expect(nameField()).toHaveValue('infusion-pump-fw-3.1.0_2023-11-21 13:14:15');
    expect(screen.getByLabelText(MSG.resourceName)).toHaveAttribute('readonly');
    expect(screen.getByLabelText(MSG.resourceName)).toHaveValue('infusion-pump-fw-3.1.0');
    expect(screen.getByLabelText(MSG.uploadTime)).toHaveValue('2023-11-21 13:14:15');
    expect(screen.getByLabelText(MSG.signQuestion)).not.toBeChecked();
  });

  it('shows the version of a model instead of the upload time', async () => {
    openCreate('r-m1', MSG.generateDevPackageTitle);
    expect(await screen.findByLabelText(MSG.version)).toHaveValue('2.3');
    expect(screen.queryByLabelText(MSG.uploadTime)).not.toBeInTheDocument();
    expect(nameField()).toHaveValue('ArrhythmiaNet_2.3');
  });

  it("keeps Continue inactive until name and note have text, and asks 'Write a note with package description!'", async () => {
    openCreate();
    await screen.findByLabelText(MSG.colNote);
    expect(screen.getByText(MSG.packageNoteRequired)).toBeInTheDocument();
    expect(continueButton()).toBeDisabled();
    fill(noteField(), '   ');
    expect(continueButton()).toBeDisabled();
    expect(screen.getByText(MSG.packageNoteRequired)).toBeInTheDocument();
    fill(noteField(), 'Bench build');
    expect(screen.queryByText(MSG.packageNoteRequired)).not.toBeInTheDocument();
    expect(continueButton()).toBeEnabled();
    fill(nameField(), '  ');
    expect(continueButton()).toBeDisabled();
  });

  it('sends the trimmed name, the type from stage and Sign?, and goes to the header step', async () => {
    let sent: unknown;
    server.events.on('request:start', async ({ request }) => {
      if (request.url.endsWith('/generate-package')) sent = await request.clone().json();
    });
    const { router } = openCreate();
    await screen.findByLabelText(MSG.colNote);
    // this resource has earlier packages; this package starts empty
    fireEvent.click(await screen.findByLabelText(COPY_LABEL));
    fill(nameField(), '  IP-3.1.0 field  ');
    fireEvent.click(screen.getByLabelText(MSG.signQuestion));
    fill(noteField(), ' For the wards ');
    fireEvent.click(continueButton());
    await atPath(router, '/packages/header');
    expect(sent).toEqual({
      packageName: 'IP-3.1.0 field',
      packageType: 'RELEASE_SIGNED',
      note: 'For the wards',
    });
    expect(session.get().currentPackage).toMatchObject({ name: 'IP-3.1.0 field', status: 'DRAFT' });
    server.events.removeAllListeners();
  });

  it.each([
    "Package with name 'VC-1.7.2 release' already exists",
    'duplicate key value violates unique constraint',
  ])("shows 'Package with this name already exists' on a conflict saying %s", async (message) => {
    server.use(
      http.post('/dev/resources/:id/generate-package', () =>
        HttpResponse.json({ errorMessage: message }, { status: 409 }),
      ),
    );
    openCreate();
    fill(await screen.findByLabelText(MSG.colNote), 'again');
    fireEvent.click(continueButton());
    expect(await screen.findByText(MSG.packageNameConflict)).toBeInTheDocument();
    fill(nameField(), 'another name');
    expect(screen.queryByText(MSG.packageNameConflict)).not.toBeInTheDocument();
  });

  it('says to choose a resource first when none was chosen', async () => {
    renderApp('/packages/create', { as: 'u-dev' });
    expect(await screen.findByRole('link', { name: 'patch' })).toHaveAttribute('href', '/patches');
  });

  it('proposes the latest approved package of the resource (any state after approval), copies it and says what was copied', async () => {
    let sent: Record<string, unknown> | undefined;
    server.events.on('request:start', async ({ request }) => {
      if (request.url.endsWith('/generate-package')) sent = await request.clone().json();
    });
    const { router } = openCreate();
    expect(await screen.findByLabelText(COPY_LABEL)).toBeChecked();
    expect(screen.getByRole('group', { name: 'Start from an earlier package' })).toBeInTheDocument();
    const select = screen.getByLabelText('Earlier package');
    expect(select).toHaveValue('pk-deliv-pending');
    expect(
      screen.getByRole('option', { name: /Defib self-test 5\.1\.0 full image — Approved/ }),
    ).toBeInTheDocument();
    fill(noteField(), 'Second attempt');
    fireEvent.click(continueButton());
    await atPath(router, '/packages/header');
    expect(sent).toMatchObject({ fromPackageId: 'pk-deliv-pending', packageType: 'RELEASE_UNSIGNED' });
    expect(await screen.findByText('Started from an earlier package')).toBeInTheDocument();
    expect(screen.getByText(/Copied from/)).toHaveTextContent('IP-3.1.0 field release');
    expect(session.get().currentPackage?.copiedFrom?.id).toBe('pk-deliv-pending');
    server.events.removeAllListeners();
  });

  it('Back to step 1 shows the draft, and Continue updates it instead of creating another', async () => {
    const calls: string[] = [];
    server.events.on('request:start', ({ request }) => {
      if (request.method !== 'GET' && request.url.includes('package'))
        calls.push(`${request.method} ${new URL(request.url).pathname}`);
    });
    const { router } = openCreate();
    fireEvent.click(await screen.findByLabelText(COPY_LABEL));
    fill(nameField(), 'IP-3.1.0 back and forth');
    fill(noteField(), 'First words');
    fireEvent.click(continueButton());
    await atPath(router, '/packages/header');
    const id = session.get().currentPackage?.id;
    await router.navigate(-1);
    await atPath(router, '/packages/create');
    expect(await screen.findByText('Your draft')).toBeInTheDocument();
    expect(nameField()).toHaveValue('IP-3.1.0 back and forth');
    expect(noteField()).toHaveValue('First words');
    expect(screen.queryByLabelText(COPY_LABEL)).not.toBeInTheDocument();
    fireEvent.click(screen.getByLabelText(MSG.signQuestion));
    fill(noteField(), 'Second words');
    fireEvent.click(continueButton());
    await atPath(router, '/packages/header');
    expect(screen.queryByText(MSG.packageNameConflict)).not.toBeInTheDocument();
    expect(session.get().currentPackage).toMatchObject({ id, note: 'Second words', type: 'RELEASE_SIGNED' });
    expect(calls).toEqual([`POST /dev/resources/r-p8/generate-package`, `PATCH /dev/packages/${id}`]);
    server.events.removeAllListeners();
  });
});
