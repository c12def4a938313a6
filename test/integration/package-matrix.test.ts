import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPackage, seededUsers, uploadModel, uploadPatch } from '../support/fixtures';
import {
  approveAllButLast,
  downloadXml,
  lastStepStatuses,
  lastSteps,
  portalKey,
  prepareAndNotify,
  runVerifier,
} from '../support/package-flow';

/**
 * Every resource type × stage × signed/unsigned reaches a downloaded artefact that passes the verifier
 * (`npm run verify`), signed ones with the portal's key from GET /dev/signing-key.
 */

let u: Awaited<ReturnType<typeof seededUsers>>;
beforeAll(async () => {
  u = await seededUsers();
});

const METADATA = JSON.stringify({ modelName: 'matrix-model', version: '0.9.0' });
const CASES = (['PATCH', 'MODEL'] as const).flatMap((resourceType) =>
  (['DEV', 'RELEASE'] as const).flatMap((stage) =>
    ([true, false] as const).map((signed) => ({ resourceType, stage, signed })),
  ),
);

describe('every resource type × stage × signed/unsigned reaches a verified package', () => {
  it('covers the eight combinations', () => {
    expect(new Set(CASES.map((c) => `${c.resourceType}/${c.stage}/${c.signed}`)).size).toBe(8);
  });

  for (const { resourceType, stage, signed } of CASES) {
    const type = `${stage}_${signed ? 'SIGNED' : 'UNSIGNED'}`;
    it(`${resourceType} ${type}`, async () => {
      const s = stage === 'DEV' ? 'dev' : 'release';
      const resource =
        resourceType === 'PATCH'
          ? await uploadPatch(u.designDev.token, s, 3000)
          : await uploadModel(u.designDev.token, s, { size: 3000, metadata: METADATA });
      const pkg = await createPackage(u.designDev.token, resource.id, type);
      await prepareAndNotify(u, pkg, 4242);
      await approveAllButLast(u, pkg);
      const steps = await lastSteps(u, pkg);
      expect(
        steps.map((r) => r.status),
        JSON.stringify(steps.map((r) => r.body)),
      ).toEqual(lastStepStatuses(pkg));

      const { file, dir } = await downloadXml(pkg.id, u.designDev.token);
      const key = await portalKey(dir);
      // signed: checked against the portal key; unsigned: without a key (the integrity checks only)
      const v = runVerifier(file, signed ? key : undefined, join(dir, 'x'));
      expect(v.out).toContain('VERDICT: VALID');
      expect(v.code).toBe(0);
      const xml = readFileSync(file, 'utf8');
      expect(xml).toContain(`<type>${type}</type>`);
      expect(xml).toContain(`<resourceType>${resourceType}</resourceType>`);
      expect(xml).toContain('name="Package Id" value="4242"');
      expect(xml).toContain('name="Patch Data Size" value="3000"');
      expect(xml).toContain(
        `name="Patch Config Size" value="${resourceType === 'MODEL' ? Buffer.byteLength(METADATA) : 0}"`,
      );
      expect(xml.includes('<signature ')).toBe(signed);
    });
  }
});
