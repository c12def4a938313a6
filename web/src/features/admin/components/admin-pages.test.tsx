import { API_ERR, MSG } from '@shared/messages';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { db } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { fill, renderApp } from '@/testing/render-app';

const headers = async () =>
  within(await screen.findByRole('table'))
    .getAllByRole('columnheader')
    .map((h) => h.textContent?.replace(/[▲▼↕]/g, '').trim())
    .filter((h) => h);
const deleteButton = () => screen.getByRole('button', { name: new RegExp(`^${MSG.deleteSelected}`) });
const range = () => screen.getByText(/^\d+-\d+ of \d+$/).textContent;

describe('admin lists', () => {
  it('lists packages with Package name, Patch name, Signed? and Note', async () => {
    renderApp('/admin/packages', { as: 'u-admin' });
    expect(await screen.findByText('IP-3.2.1 nightly')).toBeInTheDocument();
    expect(await headers()).toEqual(['Package name', 'Patch name', 'Signed?', 'Note']);
  });

  it('marks a package whose workflow mail failed every retry, naming the recipient', async () => {
    const [first] = db.packages;
    db.packages.unshift({
      ...first!,
      id: 'p-mail',
      name: 'IP-3.2.1 bench build',
      mailFailures: [
        {
          to: 'reliability-engineer@example.com',
          subject: 'Approval requested: package IP-3.2.1 bench build',
          reason: 'MessageRejected: Email address is not verified.',
          at: '2024-05-01T08:05:00.000Z',
        },
      ],
    });
    renderApp('/admin/packages', { as: 'u-admin' });
    const fixture = await screen.findByText('IP-3.2.1 bench build');
    const badge = within(fixture.closest('tr') as HTMLElement).getByText('Mail not delivered');
    expect(badge.getAttribute('title')).toMatch(/reliability.*Approval requested.*not verified/);
    expect(
      within(screen.getByText('IP-3.2.1 nightly').closest('tr') as HTMLElement).queryByText(
        'Mail not delivered',
      ),
    ).toBeNull();
  });

  it('lists DCCs and searches them by limits and telemetry type', async () => {
    renderApp('/admin/dcc', { as: 'u-admin' });
    expect(await screen.findByText('IP-4000')).toBeInTheDocument();
    expect(await headers()).toEqual(['Device ID', 'Telemetry type', 'Device limit', 'Message limit']);
    fill(screen.getByLabelText('Search'), 'ble');
    expect(range()).toBe('1-1 of 1');
    fill(screen.getByLabelText('Search'), '4096');
    expect(screen.getByText('IP-4000')).toBeInTheDocument();
    expect(range()).toBe('1-1 of 1');
  });

  it('lists users with their role labels and the note about registering again', async () => {
    renderApp('/admin/users', { as: 'u-admin' });
    expect(await screen.findByText('Dana Dev')).toBeInTheDocument();
    expect(await headers()).toEqual(['User name', 'User email', 'User role', 'Role status']);
    expect(screen.getByText('Design Engineer (dev)')).toBeInTheDocument();
    expect(screen.getByText(MSG.adminReRegisterNote)).toBeInTheDocument();
  });

  it('shows each role status and grants the selected requests beside Delete selected', async () => {
    let sent: unknown;
    const { user } = renderApp('/admin/users', { as: 'u-admin' });
    fill(await screen.findByLabelText('Search'), 'Pat');
    expect(await screen.findByText('Requested: Reliability Engineer')).toBeInTheDocument();
    const grant = screen.getByRole('button', { name: /^Grant/ });
    expect(grant).toBeDisabled();
    expect(screen.getByRole('button', { name: /^Refuse/ })).toBeDisabled();
    server.events.on('request:start', async ({ request }) => {
      if (request.url.endsWith('/admin/users/roles')) sent = await request.clone().json();
    });
    await user.click(screen.getByText('Pat Pending'));
    expect(grant).toHaveTextContent('Grant (1)');
    await user.click(grant);
    expect(await screen.findByRole('dialog')).toHaveTextContent(API_ERR.rolesDecided);
    // the role the list showed goes with the decision, so a request changed since is not granted
    expect(sent).toEqual({ grant: ['u-pending'], roles: { 'u-pending': 'RELIABILITY_ENGINEER' } });
    expect(db.users.find((u) => u.id === 'u-pending')?.roleStatus).toBe('GRANTED');
    server.events.removeAllListeners();
  });

  it("refuses the selected requests and shows the server's reason when a decision is refused", async () => {
    const { user } = renderApp('/admin/users', { as: 'u-admin' });
    fill(await screen.findByLabelText('Search'), 'Pat');
    await user.click(await screen.findByText('Pat Pending'));
    await user.click(screen.getByRole('button', { name: /^Refuse/ }));
    expect(await screen.findByRole('dialog')).toHaveTextContent(API_ERR.rolesDecided);
    expect(db.users.find((u) => u.id === 'u-pending')?.roleStatus).toBe('REFUSED');
    await user.click(screen.getByRole('button', { name: MSG.close }));
    fill(await screen.findByLabelText('Search'), 'Ada');
    await user.click(await screen.findByText('Ada Admin'));
    await user.click(screen.getByRole('button', { name: /^Grant/ }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent(API_ERR.ownRoleUndecidable);
  });

  it("titles the resources list 'Select resource' with sortable Resource name, Type, Stage and Uploaded By", async () => {
    const { user } = renderApp('/admin/resources', { as: 'u-admin' });
    expect(await screen.findByRole('heading', { name: MSG.selectResource })).toBeInTheDocument();
    expect(await headers()).toEqual(['Resource name', 'Type', 'Stage', 'Uploaded By']);
    const stage = screen.getByRole('columnheader', { name: /Stage/ });
    await user.click(within(stage).getByRole('button'));
    expect(stage).toHaveAttribute('aria-sort', 'ascending');
  });

  it('searches resources by type or stage and returns to page 1', async () => {
    const { user } = renderApp('/admin/resources', { as: 'u-admin' });
    await screen.findByRole('heading', { name: MSG.selectResource });
    await screen.findByText('infusion-pump-fw-3.2.1');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    fill(screen.getByLabelText('Search'), 'model');
    expect(range()).toBe('1-3 of 3');
    fill(screen.getByLabelText('Search'), 'RELEASE');
    expect(range()).toBe('1-3 of 3');
  });

  it('needs at least one selection to delete', async () => {
    const { user } = renderApp('/admin/users', { as: 'u-admin' });
    await screen.findByText('Dana Dev');
    expect(deleteButton()).toBeDisabled();
    await user.click(screen.getByText('Dana Dev'));
    await user.click(screen.getByText('Terry Lead'));
    expect(deleteButton()).toBeEnabled();
    expect(deleteButton()).toHaveTextContent('(2)');
  });

  it("deletes the selected rows with their ids and shows 'Deleted successfully.' whose Close returns to /admin", async () => {
    let ids: unknown;
    server.use(
      http.delete('/dev/admin/users', async ({ request }) => {
        ids = await request.json();
        return HttpResponse.json({ status: 'DELETED' });
      }),
    );
    const { user, router } = renderApp('/admin/users', { as: 'u-admin' });
    await user.click(await screen.findByText('Dana Dev'));
    await user.click(screen.getByText('Terry Lead'));
    await user.click(deleteButton());
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(MSG.deleted);
    expect(ids).toEqual(['u-dev', 'u-lead']);
    await user.click(within(dialog).getByRole('button', { name: MSG.close }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
  });

  it('shows why something referenced cannot be deleted (409)', async () => {
    const { user } = renderApp('/admin/resources', { as: 'u-admin' });
    await user.click(await screen.findByText('infusion-pump-fw-3.2.1'));
    await user.click(deleteButton());
    expect(await screen.findByRole('alertdialog')).toHaveTextContent(
      "Resource is used by package 'IP-3.2.1 nightly' and cannot be deleted",
    );
    expect(db.resources).toHaveLength(12);
  });

  it('shows the generic error popup when a list fails to load', async () => {
    server.use(
      http.get('/dev/admin/dcc', () => HttpResponse.json({ errorMessage: 'table missing' }, { status: 500 })),
    );
    renderApp('/admin/dcc', { as: 'u-admin' });
    expect(await screen.findByRole('alertdialog')).toHaveTextContent(
      `${MSG.internalErrorPrefix}table missing`,
    );
  });
});
