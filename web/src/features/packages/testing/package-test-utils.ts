import type { Package, PackageType } from '@shared/api/contracts/packages';
import { APPROVAL_POLICY, approverRoles } from '@shared/domain/approval-policy';
import { type NonAdminRole, ROLE_LABELS } from '@shared/domain/roles';
import { waitFor } from '@testing-library/react';
import { expect, vi } from 'vitest';
import { type FlowPurpose, session } from '@/lib/session/session-store';
import { PACKAGES, RESOURCES } from '@/testing/mocks/fixtures';
import { PACKAGE_FIXTURES } from '@/testing/mocks/package-fixtures';
import { renderApp } from '@/testing/render-app';

/** A fixture package (a copy: tests may change it). */
export function fixturePackage(id: string): Package {
  const found = [...PACKAGES, ...PACKAGE_FIXTURES].find((p) => p.id === id);
  if (!found) throw new Error(`no fixture package ${id}`);
  return structuredClone(found);
}

export function fixtureResource(id: string) {
  const found = RESOURCES.find((r) => r.id === id);
  if (!found) throw new Error(`no fixture resource ${id}`);
  return structuredClone(found);
}

/** Opens a package screen as a fixture user, with the session a list click would have left. */
export function openWith(
  path: string,
  options: { as: string; pkg?: Package | string; flow?: FlowPurpose; subHeader?: string },
) {
  const pkg = typeof options.pkg === 'string' ? fixturePackage(options.pkg) : (options.pkg ?? null);
  session.update({
    currentPackage: pkg,
    flowPurpose: options.flow ?? 'dev',
    subHeader: options.subHeader ?? '',
  });
  return renderApp(path, { as: options.as });
}

export const atPath = (router: ReturnType<typeof renderApp>['router'], path: string) =>
  waitFor(() => expect(router.state.location.pathname).toBe(path));

/** Replaces the browser's file saving: returns what was saved. */
export function captureDownloads() {
  const saved: { name: string; blob: Blob }[] = [];
  /** links to a URL the browser downloads itself (a presigned URL): never read by the app */
  const followed: { name: string; href: string }[] = [];
  const blobs = new Map<string, Blob>();
  let n = 0;
  URL.createObjectURL = vi.fn((blob: Blob) => {
    const url = `blob:test/${++n}`;
    blobs.set(url, blob);
    return url;
  }) as typeof URL.createObjectURL;
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href);
    if (blob) saved.push({ name: this.download, blob });
    else followed.push({ name: this.download, href: this.href });
  });
  return Object.assign(saved, { followed });
}

/** The sample users (web/src/testing/mocks/fixtures.ts) who hold each approver role; u-dev initiates. */
const SAMPLE_APPROVER: Partial<Record<NonAdminRole, string>> = {
  DESIGN_ENGINEER_TEST: 'u-test',
  TECHNICAL_LEADER: 'u-lead',
  RELIABILITY_ENGINEER: 'u-rel',
  SW_FW_RELEASE_ENGINEER: 'u-sw',
};

/**
 * One sample approver for each role the approval policy asks for a package of `type`: the field's label,
 * the user's id and the role. Tests fill the notify form with this, so a change of who approves is made
 * in the policy only (decision 272).
 */
export function approverChoices(type: PackageType): { label: string; id: string; role: NonAdminRole }[] {
  return approverRoles('approval', type).flatMap((role) => {
    const id = SAMPLE_APPROVER[role];
    return id ? [{ label: ROLE_LABELS[role], id, role }] : [];
  });
}

/**
 * An undecided approver of sample package `id` whose approval the policy's order lets through now:
 * `prefer` when it may (the Technical Leader today), else the first that may.
 */
export function mayApproveNow(id: string, prefer = 'u-lead'): string {
  const open = fixturePackage(id).approvers.filter((a) => !a.approved && !a.rejected);
  const after = APPROVAL_POLICY.rounds.approval.approvesAfter as Partial<Record<string, readonly string[]>>;
  const free = open.filter(
    (a) => !(after[a.role] ?? []).some((r) => open.some((o) => o !== a && o.role === r)),
  );
  return (free.find((a) => a.user.id === prefer) ?? free[0])!.user.id;
}
