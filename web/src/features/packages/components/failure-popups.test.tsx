import { MSG } from '@shared/messages';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { popups } from '@/lib/popup/popup-store';
import { server } from '@/testing/backend/server';
import { MOCK_PASSWORD } from '@/testing/mocks/fixtures';
import { fill } from '@/testing/render-app';
import { approverChoices, fixturePackage, openWith } from '../testing/package-test-utils';

/**
 * a 5xx or a network failure of approve, sign, reject, notify, attach-DCC or header-save
 * keeps the spec's error popup ('Internal server error. Please, contact administrator. Error: …', 'To
 * home page'). Before, each of these callers replaced it with a warning popup ('Close').
 */

afterEach(() => popups.close());

const boom = () => HttpResponse.json({ errorMessage: 'boom' }, { status: 500 });
const press = (name: string) => fireEvent.click(screen.getByRole('button', { name }));

async function expectErrorPopup(detail = 'boom') {
  const dialog = await screen.findByRole('alertdialog');
  // a moment for a caller that would replace it
  await new Promise((r) => setTimeout(r, 50));
  expect(screen.getByRole('alertdialog')).toHaveTextContent(`${MSG.internalErrorPrefix}${detail}`);
  expect(
    within(screen.getByRole('alertdialog')).getByRole('button', { name: MSG.toHomePage }),
  ).toBeInTheDocument();
  expect(within(dialog).queryByRole('button', { name: MSG.close })).not.toBeInTheDocument();
}

/** Presses a decision button and signs in its signature dialog (decision 141) with the mock password. */
async function decide(name: string) {
  press(name);
  const dialog = await screen.findByRole('dialog');
  fill(within(dialog).getByLabelText(/^Your password/), MOCK_PASSWORD);
  fireEvent.click(within(dialog).getAllByRole('button').at(-1) as HTMLElement);
}

async function headerView(as: string, pkg: string, flow: 'approve' | 'sign') {
  openWith('/packages/header/view', { as, pkg, flow });
  await screen.findByRole('table', { name: 'Package header' });
}

describe('a server failure keeps the error popup', () => {
  it('approve: 500', async () => {
    server.use(http.post('/dev/packages/:id/approve', boom));
    await headerView('u-lead', 'pk-approve-dev', 'approve');
    await decide(MSG.approve);
    await expectErrorPopup();
  });

  it('approve: the network fails', async () => {
    server.use(http.post('/dev/packages/:id/approve', () => HttpResponse.error()));
    await headerView('u-lead', 'pk-approve-dev', 'approve');
    await decide(MSG.approve);
    const dialog = await screen.findByRole('alertdialog');
    await new Promise((r) => setTimeout(r, 50));
    expect(dialog).toHaveTextContent(`${MSG.internalErrorPrefix}The server could not be reached`);
    expect(within(dialog).getByRole('button', { name: MSG.toHomePage })).toBeInTheDocument();
  });

  it('sign: 503', async () => {
    server.use(
      http.post('/dev/packages/:id/generate-signed', () =>
        HttpResponse.json({ errorMessage: 'boom' }, { status: 503 }),
      ),
    );
    await headerView('u-sw', 'pk-sign-dev', 'sign');
    await decide(MSG.sign);
    await expectErrorPopup();
  });

  it('reject: 500', async () => {
    server.use(http.post('/dev/packages/:id/reject', boom));
    await headerView('u-lead', 'pk-approve-dev', 'approve');
    press(MSG.reject);
    fill(await screen.findByLabelText('Reason for the rejection'), 'Wrong serial range');
    fill(screen.getByLabelText(/^Your password/), MOCK_PASSWORD);
    fireEvent.click(screen.getAllByRole('button', { name: MSG.reject }).at(-1) as HTMLElement);
    await expectErrorPopup();
  });

  it('notify: 500', async () => {
    server.use(http.post('/dev/packages/:id/notify-approvers', boom));
    const draft = { ...fixturePackage('p-1'), dccId: 'd-1' };
    openWith('/packages/notify-approvers', { as: 'u-dev', pkg: draft, flow: 'dev' });
    for (const { label, id } of approverChoices(draft.type))
      fireEvent.change(await screen.findByLabelText(label), { target: { value: id } });
    await waitFor(() => expect(screen.getByRole('button', { name: MSG.notify })).toBeEnabled());
    press(MSG.notify);
    await expectErrorPopup();
  });

  it('attach DCC: 500', async () => {
    server.use(http.post('/dev/packages/:id/dcc/:dccId', boom));
    openWith('/packages/dcc', { as: 'u-dev', pkg: 'p-1', flow: 'dev' });
    fireEvent.click(await screen.findByText('IP-4000'));
    press(MSG.continue);
    await expectErrorPopup();
  });

  it('header save: 502', async () => {
    server.use(
      http.patch('/dev/packages/:id/header', () =>
        HttpResponse.json({ errorMessage: 'boom' }, { status: 502 }),
      ),
    );
    openWith('/packages/header', { as: 'u-dev', pkg: 'p-1', flow: 'dev' });
    await screen.findByRole('table', { name: 'Package header' });
    press(MSG.continue);
    await expectErrorPopup();
  });

  it("a refusal (409) is still the caller's warning with the server's words", async () => {
    server.use(
      http.post('/dev/packages/:id/approve', () =>
        HttpResponse.json({ errorMessage: 'The package moved on' }, { status: 409 }),
      ),
    );
    await headerView('u-lead', 'pk-approve-dev', 'approve');
    await decide(MSG.approve);
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('The package moved on');
    expect(dialog).not.toHaveTextContent(MSG.internalErrorPrefix);
    expect(within(dialog).getByRole('button', { name: MSG.close })).toBeInTheDocument();
  });
});
