import { NON_ADMIN_ROLES } from '@shared/domain/roles';
import { describe, expect, it } from 'vitest';
import { PACKAGES } from './fixtures';
import { PACKAGE_FIXTURES } from './package-fixtures';

/** Spec §6: "The five non-admin roles appear as delivery approvers in sample data." (issue 16 item 6) */
describe('mock sample data', () => {
  const all = [...PACKAGES, ...PACKAGE_FIXTURES];

  it('has every non-admin role, the SW/FW Release Engineer included, among the delivery approvers', () => {
    const roles = new Set(all.flatMap((p) => p.deliveryApprovers.map((a) => a.role)));
    expect([...roles].sort()).toEqual([...NON_ADMIN_ROLES].sort());
  });

  it('carries the review facts the server answers (decision 150): every package its file, every package with a DCC its values', () => {
    for (const p of all) {
      expect(p.resourceFile?.sha256, p.id).toMatch(/^[0-9a-f]{64}$/);
      if (p.dccId) expect(p.dcc?.deviceId, p.id).toBeTruthy();
    }
  });
});
