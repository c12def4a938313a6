import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Package, PackageType } from '../../shared/api/contracts/packages';
import { APPROVAL_POLICY, approvalOrder, approverRoles } from '../../shared/domain/approval-policy';
import type { NonAdminRole } from '../../shared/domain/roles';
import type { RoundName } from '../../shared/domain/voting-rounds';
import { type ApiResult, api, apiAt, jsonText } from './api';
import { createDcc, type seededUsers } from './fixtures';
import { SEEDED_KEY_BY_ROLE } from './seeded-approvers';

export { seededApproverKeys } from './seeded-approvers';

type Seeded = Awaited<ReturnType<typeof seededUsers>>;
const root = resolve(import.meta.dirname, '..', '..');

type SeededUser = Seeded[keyof Seeded];

/** The seeded user of each approver role. */
const seededByRole = (u: Seeded): Partial<Record<NonAdminRole, SeededUser>> =>
  Object.fromEntries(Object.entries(SEEDED_KEY_BY_ROLE).map(([role, key]) => [role, u[key]]));

/** A user who can approve: an id and a session token (a seeded user, or one a test made). */
export type Voter = { id: string; token: string };

/**
 * The seeded approvers the approval policy asks for a package of `type` in `round` (one per role that
 * has a seeded holder; a signed release package needs all four), in an order the policy lets them
 * approve: the last decides the round. Tests choose and approve with this, so a change of who approves,
 * or in which order, is made in the policy only (decision 272). `instead`: other holders of some roles
 * (a newcomer, a user about to be deleted), in place of the seeded ones. `leaveOut`: ids the policy keeps
 * out of this package (the uploader of its resource when a seeded approver uploaded it, decision 331;
 * the test's uploads are the initiator's, who approves nothing): their role is left out unless `instead`
 * names another holder.
 */
export function approversFor<V extends Voter = SeededUser>(
  u: Seeded,
  type: PackageType,
  round: RoundName = 'approval',
  instead: Partial<Record<NonAdminRole, V>> = {},
  leaveOut: readonly string[] = [],
): ((SeededUser | V) & { role: NonAdminRole })[] {
  const byRole: Partial<Record<NonAdminRole, SeededUser | V>> = { ...seededByRole(u), ...instead };
  const chosen = approverRoles(round, type).flatMap((role) => {
    const who = byRole[role];
    return who && !leaveOut.includes(who.id) ? [{ ...who, role }] : [];
  });
  return approvalOrder(chosen, (c) => c.role, round);
}

/**
 * Whether a holder of `role` may approve at any time in `round` (the policy orders no role before it):
 * tests that send approvals at once send these together, and the others after them (decision 272).
 */
export const approvesAnyTime = (role: NonAdminRole, round: RoundName = 'approval') =>
  (APPROVAL_POLICY.rounds[round].approvesAfter[role] ?? []).length === 0;

/** The approvers of `approversFor` as a notify call's body lists them. */
export const chosenApprovers = <V extends Voter = SeededUser>(
  u: Seeded,
  type: PackageType,
  round: RoundName = 'approval',
  instead: Partial<Record<NonAdminRole, V>> = {},
  leaveOut: readonly string[] = [],
) => approversFor(u, type, round, instead, leaveOut).map(({ role, id }) => ({ role, id }));

/** The approver whose approval decides the round (the last in the policy's order). */
export const lastApprover = (u: Seeded, type: PackageType) => approversFor(u, type).at(-1)!;

/** The seeded user who signs a signed package (the policy's signer role). */
export const seededSigner = (u: Seeded) => seededByRole(u)[APPROVAL_POLICY.signer.role]!;

/** The seeded user who starts a delivery (the policy's deliverer role). */
export const seededDeliverer = (u: Seeded) => seededByRole(u)[APPROVAL_POLICY.deliverer.role]!;

/** The header document of a package as GET /packages/{id}/header returns it. */
export async function headerOf(id: string, token: string) {
  const r = await api<{ header: string }>(`/packages/${id}/header`, { token });
  if (r.status !== 200) throw new Error(`header: ${r.status} ${JSON.stringify(r.body)}`);
  return jsonText<{ fields: { name: string; type: string; value: unknown; computed?: string }[] }>(
    r.body.header,
  );
}

/** The draft's header with its Package Id set, saved by the initiator. */
export async function savePackageId(token: string, pkgId: string, packageId: number): Promise<void> {
  const header = await headerOf(pkgId, token);
  header.fields.find((f) => f.name === 'Package Id')!.value = packageId;
  const saved = await api(`/packages/${pkgId}/header`, {
    method: 'PATCH',
    token,
    body: { header: JSON.stringify(header) },
  });
  if (saved.status !== 200) throw new Error(`header edit: ${saved.status} ${JSON.stringify(saved.body)}`);
}

/** From DRAFT to notified: edits the header (Package Id), attaches a new DCC, notifies the policy's approvers (and the signer). */
export async function prepareAndNotify(u: Seeded, pkg: Package, packageId = 77): Promise<void> {
  await savePackageId(u.designDev.token, pkg.id, packageId);
  const dccId = await createDcc(u.designDev.token);
  const att = await api(`/packages/${pkg.id}/dcc/${dccId}`, { method: 'POST', token: u.designDev.token });
  if (att.status !== 200) throw new Error(`dcc: ${att.status} ${JSON.stringify(att.body)}`);
  const n = await api(`/packages/${pkg.id}/notify-approvers`, {
    method: 'POST',
    token: u.designDev.token,
    body: { approvers: chosenApprovers(u, pkg.type), ...(pkg.signed ? { signer: seededSigner(u).id } : {}) },
  });
  if (n.status !== 200) throw new Error(`notify: ${n.status} ${JSON.stringify(n.body)}`);
}

/** Every approval but the last, in the policy's order (each answers 202), leaving the last one to the caller. */
export async function approveAllButLast(u: Seeded, pkg: Pick<Package, 'id' | 'type'>): Promise<void> {
  for (const who of approversFor(u, pkg.type).slice(0, -1)) {
    const r = await api(`/packages/${pkg.id}/approve`, { method: 'POST', token: who.token });
    if (r.status !== 202) throw new Error(`approve: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

/**
 * The last approval (`lastApprover`), then, for a signed package, the signature; the deciding call
 * answers 202 GENERATING and the XML is generated off the request path (decision 160), so this waits
 * until the package is ready (APPROVED or SIGNED) when the deciding call was accepted.
 */
export async function lastSteps(
  u: Seeded,
  pkg: Pick<Package, 'id' | 'type' | 'signed' | 'resourceStage'>,
): Promise<ApiResult[]> {
  const last = lastApprover(u, pkg.type);
  const signer = seededSigner(u);
  const out: ApiResult[] = [await api(`/packages/${pkg.id}/approve`, { method: 'POST', token: last.token })];
  if (pkg.signed)
    out.push(await api(`/packages/${pkg.id}/generate-signed`, { method: 'POST', token: signer.token }));
  if (out.at(-1)!.status === 202) await waitForStatus(pkg, signer.token, pkg.signed ? 'SIGNED' : 'APPROVED');
  return out;
}

/** The HTTP statuses of `lastSteps`: the deciding call is 202 GENERATING, a last approval before a signature 200. */
export const lastStepStatuses = (pkg: Pick<Package, 'signed'>): number[] => (pkg.signed ? [200, 202] : [202]);

/** The package as its stage's list shows it now (null: not listed). */
export async function packageNow(
  pkg: Pick<Package, 'id' | 'resourceStage'>,
  token: string,
  base?: string,
): Promise<Package | null> {
  const path = `/${pkg.resourceStage.toLowerCase()}/packages`;
  const r = base
    ? await apiAt<{ packages: string }>(base, path, { token })
    : await api<{ packages: string }>(path, { token });
  if (r.status !== 200) throw new Error(`list: ${r.status} ${JSON.stringify(r.body)}`);
  return jsonText<Package[]>(r.body.packages).find((p) => p.id === pkg.id) ?? null;
}

/**
 * Polls the package's list until the package has `status` (and, if given, `until` holds); fails with the
 * last state seen after `timeoutMs`. Generation runs off the request path (decision 160).
 */
export async function waitForStatus(
  pkg: Pick<Package, 'id' | 'resourceStage'>,
  token: string,
  status: Package['status'],
  {
    base,
    timeoutMs = 60_000,
    until,
  }: { base?: string; timeoutMs?: number; until?: (p: Package) => boolean } = {},
): Promise<Package> {
  const deadline = Date.now() + timeoutMs;
  let seen: Package | null = null;
  for (;;) {
    seen = await packageNow(pkg, token, base);
    if (seen?.status === status && (!until || until(seen))) return seen;
    if (Date.now() > deadline)
      throw new Error(`package ${pkg.id} did not reach ${status}; last seen: ${JSON.stringify(seen)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Downloads the package's XML into a fresh folder; returns its path. */
export async function downloadXml(id: string, token: string): Promise<{ file: string; dir: string }> {
  const dl = await api<{ base64EncodedXMLPackage?: string; downloadUrl?: string; fileName: string }>(
    `/packages/${id}`,
    { token },
  );
  if (dl.status !== 200) throw new Error(`download: ${dl.status} ${JSON.stringify(dl.body)}`);
  const dir = mkdtempSync(join(tmpdir(), 'pkg-'));
  const file = join(dir, dl.body.fileName);
  const bytes = dl.body.base64EncodedXMLPackage
    ? Buffer.from(dl.body.base64EncodedXMLPackage, 'base64')
    : Buffer.from(await (await fetch(dl.body.downloadUrl!)).arrayBuffer());
  writeFileSync(file, bytes);
  return { file, dir };
}

/** The portal's release key (GET /dev/signing-key.pem, no query) written to `dir`/portal-key.pem. */
export async function portalKey(dir: string): Promise<string> {
  const key = await api<string>('/signing-key.pem');
  if (key.status !== 200) throw new Error(`signing-key.pem: ${key.status}`);
  const path = join(dir, 'portal-key.pem');
  writeFileSync(path, key.body);
  return path;
}

/** A stage's signing key (GET /dev/signing-key.pem?stage=…, decision 295) written to `dir`/<stage>-key.pem. */
export async function stageKey(dir: string, stage: 'release' | 'dev'): Promise<string> {
  const key = await api<string>(`/signing-key.pem?stage=${stage}`);
  if (key.status !== 200) throw new Error(`signing-key.pem?stage=${stage}: ${key.status}`);
  const path = join(dir, `${stage}-key.pem`);
  writeFileSync(path, key.body);
  return path;
}

/**
 * Runs `npm run verify`'s script on `file`, as the device `keys` make it (each a `--key`; `dev` adds
 * `--dev`); returns its exit code and report.
 */
export function runVerifier(
  file: string,
  keys?: string | readonly string[],
  extract?: string,
  dev = false,
): { code: number; out: string } {
  const args = ['--import', 'tsx', join(root, 'scripts/verify.ts'), file];
  for (const key of typeof keys === 'string' ? [keys] : (keys ?? [])) args.push('--key', key);
  if (dev) args.push('--dev');
  if (extract) args.push('--extract', extract);
  try {
    return { code: 0, out: execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' }) };
  } catch (e) {
    const err = e as { status: number; stdout: string };
    return { code: err.status, out: String(err.stdout) };
  }
}

/**
 * Verifies a downloaded package as the device that takes its type (docs/package-format.md §7): a signed
 * release package on a device in the field (the release key), a signed development package on a device in
 * a development mode (the development and release keys), an unsigned one for its integrity only.
 */
export async function verifyAsDevice(
  file: string,
  dir: string,
  type: string,
  extract?: string,
): Promise<{ code: number; out: string }> {
  if (type === 'RELEASE_SIGNED') return runVerifier(file, await stageKey(dir, 'release'), extract);
  if (type === 'DEV_SIGNED')
    return runVerifier(file, [await stageKey(dir, 'dev'), await stageKey(dir, 'release')], extract, true);
  return runVerifier(file, undefined, extract);
}
