import { MSG } from '@shared/messages';
import { fireEvent, screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { replacePackage, server } from '@/testing/backend/server';
import { MOCK_PASSWORD } from '@/testing/mocks/fixtures';
import { fill } from '@/testing/render-app';
import { approverChoices, atPath, fixturePackage, openWith } from '../testing/package-test-utils';
import { notifyWarnings } from './notify-approvers-page';

/** Draft p-1 as a package of `type` with a DCC attached, in the backend and in the session. */
const draft = async (type: 'DEV_UNSIGNED' | 'DEV_SIGNED' | 'RELEASE_SIGNED') => {
  const p = { ...fixturePackage('p-1'), type, signed: type.endsWith('_SIGNED'), dccId: 'd-1' };
  await replacePackage(p);
  return p;
};
const bodyOf = async (request: Request) => {
  try {
    return await request.clone().json();
  } catch {
    return undefined;
  }
};
const users = (role: string, n = 1) =>
  Array.from({ length: n }, (_, i) => ({
    id: `${role}-${i}`,
    name: `${role} ${i}`,
    email: 'x@example.com',
    userRole: role,
  }));
const approversAnswer = (roles: string[], signers: number, uploader?: { id: string; name: string }) =>
  http.get('/dev/packages/:id/approvers', () =>
    HttpResponse.json({
      approvers: JSON.stringify(Object.fromEntries(roles.map((r) => [r, users(r)]))),
      signers: JSON.stringify(users('SW_FW_RELEASE_ENGINEER', signers)),
      ...(uploader ? { uploader } : {}),
    }),
  );
/** The warning of a round below the policy's minimum begins with the spec's words for a signed release. */
const notEnough = expect.stringMatching(
  /^Not enough approvers in the system! This package \(Release package, signed\) needs at least 4 approver roles/,
);
const notifyButton = () => screen.getByRole('button', { name: MSG.notify });

describe('notify approvers (spec §2.8, §5)', () => {
  it('offers one approver per role and a signer for a signed package; Notify sends and goes home', async () => {
    let sent: unknown;
    server.events.on('request:start', async ({ request }) => {
      if (request.url.endsWith('/notify-approvers')) sent = await bodyOf(request);
    });
    const { router } = openWith('/packages/notify-approvers', {
      as: 'u-dev',
      pkg: await draft('DEV_SIGNED'),
      flow: 'dev',
    });
    const choices = approverChoices('DEV_SIGNED');
    for (const c of choices) expect(await screen.findByLabelText(c.label)).toBeInTheDocument();
    expect(screen.queryByLabelText('Design Engineer (dev)')).not.toBeInTheDocument();
    expect(notifyButton()).toBeDisabled();
    for (const c of choices) fireEvent.change(screen.getByLabelText(c.label), { target: { value: c.id } });
    expect(notifyButton()).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Signer'), { target: { value: 'u-sw' } });
    expect(notifyButton()).toBeEnabled();
    fireEvent.click(notifyButton());
    expect(await screen.findByText(MSG.notified)).toBeInTheDocument();
    expect(sent).toEqual({ approvers: choices.map(({ role, id }) => ({ role, id })), signer: 'u-sw' });
    fireEvent.click(screen.getByRole('button', { name: MSG.close }));
    await atPath(router, '/home');
    server.events.removeAllListeners();
  });

  it('asks no signer for an unsigned package', async () => {
    openWith('/packages/notify-approvers', { as: 'u-dev', pkg: await draft('DEV_UNSIGNED'), flow: 'dev' });
    await screen.findByLabelText('Technical Leader');
    expect(screen.queryByLabelText('Signer')).not.toBeInTheDocument();
  });

  it("warns 'No signers in the system!' for a signed package without signers", async () => {
    server.use(approversAnswer(['TECHNICAL_LEADER', 'RELIABILITY_ENGINEER'], 0));
    openWith('/packages/notify-approvers', { as: 'u-dev', pkg: await draft('DEV_SIGNED'), flow: 'dev' });
    expect(await screen.findByText(MSG.noSigners)).toBeInTheDocument();
    expect(notifyButton()).toBeDisabled();
  });

  it("warns 'Not enough approvers in the system!' for a signed release package with fewer than four roles", async () => {
    server.use(approversAnswer(['TECHNICAL_LEADER', 'RELIABILITY_ENGINEER', 'SW_FW_RELEASE_ENGINEER'], 1));
    openWith('/packages/notify-approvers', {
      as: 'u-dev',
      pkg: await draft('RELEASE_SIGNED'),
      flow: 'release',
    });
    expect(
      await screen.findByText(
        `${MSG.notEnoughApprovers} This package (Release package, signed) needs at least 4 approver roles; only 3 have someone who may approve: ask an admin to grant the Design Engineer (dev) or Design Engineer (test) role to a colleague who may approve it.`,
      ),
    ).toBeInTheDocument();
    expect(notifyButton()).toBeDisabled();
  });

  it("names the uploader of the package's firmware, who is not offered (decision 331)", async () => {
    server.use(
      approversAnswer(['TECHNICAL_LEADER', 'RELIABILITY_ENGINEER', 'SW_FW_RELEASE_ENGINEER'], 1, {
        id: 'u-test',
        name: 'Tess Tester',
      }),
    );
    openWith('/packages/notify-approvers', { as: 'u-dev', pkg: await draft('DEV_SIGNED'), flow: 'dev' });
    expect(await screen.findByRole('note', { name: 'Uploader' })).toHaveTextContent(
      'Tess Tester uploaded the firmware of this package, so they cannot review it: they are not offered as an approver or signer.',
    );
    expect(screen.queryByLabelText('Design Engineer (test)')).not.toBeInTheDocument();
  });

  it('says nothing of the uploader when the initiator uploaded the firmware (they cannot approve anyway)', async () => {
    const pkg = await draft('DEV_SIGNED');
    server.use(approversAnswer(['TECHNICAL_LEADER', 'RELIABILITY_ENGINEER'], 1, pkg.initiator));
    openWith('/packages/notify-approvers', { as: 'u-dev', pkg, flow: 'dev' });
    expect(await screen.findByLabelText('Technical Leader')).toBeInTheDocument();
    expect(screen.queryByRole('note', { name: 'Uploader' })).not.toBeInTheDocument();
  });

  it('warns of a delivery below the policy minimum of three roles (decision 332)', async () => {
    server.use(approversAnswer(['TECHNICAL_LEADER', 'RELIABILITY_ENGINEER'], 0));
    openWith('/packages/notify-approvers', { as: 'u-sw', pkg: 'p-3', flow: 'delivery' });
    expect(
      await screen.findByText(
        /^Its delivery needs at least 3 approver roles; only 2 have someone who may approve/,
      ),
    ).toBeInTheDocument();
    expect(notifyButton()).toBeDisabled();
  });

  it('chooses delivery approvers without a signer or the four-role rule in the delivery flow', async () => {
    server.use(approversAnswer(['TECHNICAL_LEADER', 'RELIABILITY_ENGINEER', 'DESIGN_ENGINEER_TEST'], 0));
    let path = '';
    server.events.on('request:start', ({ request }) => {
      if (request.url.endsWith('/notify-approvers')) path = new URL(request.url).pathname;
    });
    openWith('/packages/notify-approvers', {
      as: 'u-sw',
      pkg: 'p-3',
      flow: 'delivery',
      subHeader: MSG.generateDeliveryPackageTitle,
    });
    expect(
      await screen.findByRole('heading', { name: MSG.generateDeliveryPackageTitle }),
    ).toBeInTheDocument();
    expect(screen.queryByText(MSG.notEnoughApprovers)).not.toBeInTheDocument();
    expect(screen.queryByText(MSG.noSigners)).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Signer')).not.toBeInTheDocument();
    fireEvent.change(await screen.findByLabelText('Technical Leader'), {
      target: { value: 'TECHNICAL_LEADER-0' },
    });
    fireEvent.change(screen.getByLabelText('Reliability Engineer'), {
      target: { value: 'RELIABILITY_ENGINEER-0' },
    });
    fireEvent.change(screen.getByLabelText('Design Engineer (test)'), {
      target: { value: 'DESIGN_ENGINEER_TEST-0' },
    });
    server.use(
      http.post('/dev/delivery/packages/:id/notify-approvers', () =>
        HttpResponse.json({ message: MSG.notified }),
      ),
    );
    fireEvent.click(notifyButton());
    const dialog = (await screen.findByRole('dialog', { name: 'Sign: Deliver' })) as HTMLElement;
    fill(within(dialog).getByLabelText(/^Your password/), MOCK_PASSWORD);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deliver' }));
    expect(await screen.findByText(MSG.notified)).toBeInTheDocument();
    expect(path).toBe('/dev/delivery/packages/p-3/notify-approvers');
    server.events.removeAllListeners();
  });

  it("shows the server's refusal and notifies nobody", async () => {
    server.use(
      http.post('/dev/packages/:id/notify-approvers', () =>
        HttpResponse.json({ errorMessage: 'Choose an approver for every role' }, { status: 400 }),
      ),
    );
    openWith('/packages/notify-approvers', { as: 'u-dev', pkg: await draft('DEV_UNSIGNED'), flow: 'dev' });
    for (const { label, id } of approverChoices('DEV_UNSIGNED'))
      fireEvent.change(await screen.findByLabelText(label), { target: { value: id } });
    fireEvent.click(notifyButton());
    expect(await screen.findByText('Choose an approver for every role')).toBeInTheDocument();
    expect(screen.queryByText(MSG.notified)).not.toBeInTheDocument();
  });
});

describe('notify warnings (spec §5)', () => {
  const candidates = (roles: number, signers: number) => ({
    approvers: Object.fromEntries(
      ['TECHNICAL_LEADER', 'RELIABILITY_ENGINEER', 'SW_FW_RELEASE_ENGINEER', 'DESIGN_ENGINEER_TEST']
        .slice(0, roles)
        .map((r) => [r, users(r)]),
    ),
    signers: users('SW_FW_RELEASE_ENGINEER', signers) as never,
  });

  it.each([
    ['DEV_UNSIGNED', 1, 0, false, [expect.stringMatching(/needs at least 2 approver roles; only 1 has/)]],
    ['DEV_UNSIGNED', 2, 0, false, []],
    ['DEV_SIGNED', 2, 0, false, [MSG.noSigners]],
    ['DEV_SIGNED', 2, 1, false, []],
    ['RELEASE_SIGNED', 3, 1, false, [notEnough]],
    ['RELEASE_SIGNED', 4, 1, false, []],
    ['RELEASE_SIGNED', 3, 0, false, [MSG.noSigners, notEnough]],
    ['RELEASE_SIGNED', 2, 0, true, [expect.stringMatching(/^Its delivery needs at least 3 approver roles/)]],
    ['RELEASE_SIGNED', 3, 0, true, []],
    [
      'RELEASE_UNSIGNED',
      3,
      0,
      false,
      [expect.stringMatching(/needs at least 4 approver roles; only 3 have/)],
    ],
    ['RELEASE_UNSIGNED', 4, 0, false, []],
  ] as const)(
    '%s with %i roles and %i signers (delivery %s): %j',
    (type, roles, signers, delivery, expected) => {
      expect(
        notifyWarnings({ type, signed: type.endsWith('_SIGNED') }, candidates(roles, signers), delivery),
      ).toEqual(expected);
    },
  );

  it('re-deliver fills in the previous delivery approvers, still changeable', async () => {
    let sent: unknown;
    server.use(
      http.post('/dev/delivery/packages/:id/notify-approvers', async ({ request }) => {
        sent = await bodyOf(request);
        return HttpResponse.json({ message: MSG.notified });
      }),
    );
    // pk-deliv-rejected: delivered by u-sw to Dana Dev, Riley Reliability and Terry Lead; Riley rejected
    openWith('/packages/notify-approvers', {
      as: 'u-sw',
      pkg: 'pk-deliv-rejected',
      flow: 'delivery',
      subHeader: MSG.generateDeliveryPackageTitle,
    });
    const dev = await screen.findByLabelText('Design Engineer (dev)');
    expect(dev).toHaveValue('u-dev');
    expect(screen.getByLabelText('Reliability Engineer')).toHaveValue('u-rel');
    expect(screen.getByLabelText('Technical Leader')).toHaveValue('u-lead');
    expect(screen.getByRole('note')).toHaveTextContent('delivery approvers of the previous delivery');
    expect(notifyButton()).toBeEnabled();
    // a pre-filled choice is an ordinary choice: cleared, Notify waits for it again
    fireEvent.change(screen.getByLabelText('Technical Leader'), { target: { value: '' } });
    expect(notifyButton()).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Technical Leader'), { target: { value: 'u-lead' } });
    expect(notifyButton()).toBeEnabled();
    fireEvent.click(notifyButton());
    // a delivery is signed (decision 141)
    const dialog = (await screen.findByRole('dialog')) as HTMLElement;
    fill(within(dialog).getByLabelText(/^Your password/), MOCK_PASSWORD);
    fireEvent.click(within(dialog).getAllByRole('button').at(-1) as HTMLElement);
    expect(await screen.findByText(MSG.notified)).toBeInTheDocument();
    expect(sent).toEqual({
      approvers: expect.arrayContaining([
        { role: 'DESIGN_ENGINEER_DEV', id: 'u-dev' },
        { role: 'RELIABILITY_ENGINEER', id: 'u-rel' },
        { role: 'TECHNICAL_LEADER', id: 'u-lead' },
      ]),
      password: MOCK_PASSWORD,
    });
  });

  it('a first delivery starts with nothing chosen', async () => {
    openWith('/packages/notify-approvers', { as: 'u-sw', pkg: 'p-3', flow: 'delivery' });
    expect(await screen.findByLabelText('Technical Leader')).toHaveValue('');
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
    expect(notifyButton()).toBeDisabled();
  });
});
