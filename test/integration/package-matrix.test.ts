import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runVerify } from '../../scripts/verify';
import { baseUrl } from '../support/api';
import { createPackage, seededUsers, uploadModel, uploadPatch } from '../support/fixtures';
import {
  approveAllButLast,
  downloadXml,
  lastStepStatuses,
  lastSteps,
  prepareAndNotify,
  stageKey,
  verifyAsDevice,
} from '../support/package-flow';

/** `npm run verify`'s function, in this process (the device runs above spawn the command itself). */
async function verifyInProcess(...args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await runVerify(args, (t) => {
    out += t;
  });
  return { code, out };
}

/**
 * Every resource type × stage × signed/unsigned reaches a downloaded artefact that passes the verifier
 * (`npm run verify`), signed ones as the device that takes them, with the keys of GET /dev/signing-key.pem
 * (decisions 295, 296).
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
      // signed: checked as the device that takes it (release: the release key in the field; development:
      // the development and release keys in a development mode); unsigned: the integrity checks only
      const v = await verifyAsDevice(file, dir, type, join(dir, 'x'));
      expect(v.out).toContain('VERDICT: VALID');
      expect(v.code).toBe(0);
      const release = await stageKey(dir, 'release');
      const dev = await stageKey(dir, 'dev');
      if (signed) {
        // signed by its stage's key alone (decision 295): the other key does not verify it
        const [own, other] = stage === 'DEV' ? [dev, release] : [release, dev];
        expect((await verifyInProcess(file, '--dev', '--key', own)).code).toBe(0);
        expect((await verifyInProcess(file, '--dev', '--key', other)).out).toMatch(
          /FAIL {2}Signature \(trusted key\)/,
        );
        // its provenance statement too, as the endpoint sends it (one line, one LF)
        const raw = await fetch(`${baseUrl()}/dev/packages/${pkg.id}/provenance-statement`, {
          headers: { Authorization: `Bearer ${u.designDev.token}` },
        });
        const statement = join(dir, 'statement.json');
        writeFileSync(statement, await raw.text());
        const checked = await verifyInProcess(
          file,
          '--dev',
          '--key',
          other,
          '--key',
          own,
          '--statement',
          statement,
        );
        expect(checked.out).toContain('PASS  Statement signer: ');
        expect(checked.out).toContain('PASS  Statement signature (trusted key)');
        expect(checked.code).toBe(0);
      }
      if (stage === 'DEV') {
        // a device in the field, holding the release key, refuses every development package
        const field = await verifyInProcess(file, '--key', release);
        expect(field.code).toBe(1);
        expect(field.out).toMatch(
          signed ? /FAIL {2}Device policy: a DEV_SIGNED package/ : /FAIL {2}Signature \(trusted key\)/,
        );
      }
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
