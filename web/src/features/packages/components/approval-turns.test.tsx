import type { Package } from '@shared/api/contracts/packages';
import { MSG } from '@shared/messages';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { approvalPolicy, restoreApprovalPolicy, selectApprovalPolicy } from '@/config/approval-policy';
import { waitsFirstFor } from '@/lib/turns';
import { replacePackage } from '@/testing/backend/server';
import { fixturePackage, openWith } from '../testing/package-test-utils';

/**
 * Tests of the approval policy itself (docs/approval-policy.md): they select the policy they are about
 * ("the Technical Leader approves last"), so they hold whichever policy the run selects.
 */
describe('"the Technical Leader approves last" on the review pages', () => {
  let before: ReturnType<typeof approvalPolicy>;
  beforeEach(() => {
    before = approvalPolicy();
    selectApprovalPolicy('technical-leader-last');
  });
  afterEach(() => {
    restoreApprovalPolicy(before);
  });

  // pk-approve-dev: the Design Engineer (test) approved; the Leader, Reliability and Release Engineers not yet
  it('the Leader sees whom the package waits for first, and no Approve button; Reject stays', async () => {
    openWith('/packages/header/view', { as: 'u-lead', pkg: 'pk-approve-dev', flow: 'approve' });
    await screen.findByRole('table', { name: 'Package header' });
    expect(
      screen.getByText(
        'Waits for: Reliability Engineer, SW/FW Release Engineer, then you. You can approve once they have approved; you can reject now.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: MSG.approve })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: MSG.reject })).toBeInTheDocument();
  });

  it('the details page says the same before Continue', async () => {
    openWith('/packages/approve/view', { as: 'u-lead', pkg: 'pk-approve-dev', flow: 'approve' });
    expect(
      await screen.findByText(/^Waits for: Reliability Engineer, SW\/FW Release Engineer, then you\./),
    ).toBeInTheDocument();
  });

  it('a Reliability Engineer approves at once; the Leader once the others approved', async () => {
    openWith('/packages/header/view', { as: 'u-rel', pkg: 'pk-approve-dev', flow: 'approve' });
    expect(await screen.findByRole('button', { name: MSG.approve })).toBeInTheDocument();
    expect(screen.queryByText(/^Waits for:/)).not.toBeInTheDocument();

    const othersDone: Package = fixturePackage('pk-approve-dev');
    othersDone.approvers = othersDone.approvers.map((a) => ({ ...a, approved: a.user.id !== 'u-lead' }));
    await replacePackage(structuredClone(othersDone));
    expect(waitsFirstFor(othersDone, 'u-lead', 'approve')).toEqual([]);
    openWith('/packages/header/view', { as: 'u-lead', pkg: othersDone, flow: 'approve' });
    expect(await screen.findByRole('button', { name: MSG.approve })).toBeInTheDocument();
  });

  it('outside the approval flows, and under the specification, nobody waits', () => {
    const pkg = fixturePackage('pk-approve-dev');
    expect(waitsFirstFor(pkg, 'u-lead', 'approve')).toEqual([
      'Reliability Engineer',
      'SW/FW Release Engineer',
    ]);
    expect(waitsFirstFor(pkg, 'u-lead', 'release')).toEqual([]);
    selectApprovalPolicy('spec');
    expect(waitsFirstFor(pkg, 'u-lead', 'approve')).toEqual([]);
  });
});
