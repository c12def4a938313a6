import { randomBytes } from 'node:crypto';
import type { Package, PackageStatus, PackageType } from '../../shared/api/contracts/packages';
import type { Resource } from '../../shared/api/contracts/resources';
import { SEED_PASSWORD } from '../../shared/domain/seed-users';
import { type ApiResult, apiAt, type CallOptions, jsonText, SEEDED, SEEDED_ADMIN_2, uniq } from './api';
import { approversFor, seededSigner } from './package-flow';

/** A seeded user signed in on a stack of the test's own. */
export interface KitUser {
  token: string;
  id: string;
  email: string;
}
export type KitUsers = Record<keyof typeof SEEDED | 'admin2', KitUser>;

/**
 * The API kit of test/support (fixtures.ts, package-flow.ts) for a stack a test started itself
 * (stack-process.ts): the same calls, against `base` instead of the run's shared stack.
 */
export class StackKit {
  constructor(readonly base: string) {}

  call<T = Record<string, unknown>>(path: string, opts: CallOptions = {}): Promise<ApiResult<T>> {
    return apiAt<T>(this.base, path, opts);
  }

  /** The call, which must answer `status`: otherwise an error naming what it answered. */
  async must<T = Record<string, unknown>>(status: number, path: string, opts: CallOptions = {}) {
    const r = await this.call<T>(path, opts);
    if (r.status !== status)
      throw new Error(
        `${opts.method ?? 'GET'} ${path}: ${r.status} ${JSON.stringify(r.body)} (expected ${status})`,
      );
    return r;
  }

  async user(email: string): Promise<KitUser> {
    const login = await this.must<{ token: string }>(200, '/user/login', {
      method: 'POST',
      body: { login: email, password: SEED_PASSWORD },
    });
    const me = await this.must<{ user: string }>(200, '/user/auth', {
      method: 'POST',
      token: login.body.token,
    });
    return { token: login.body.token, id: jsonText<{ id: string }>(me.body.user).id, email };
  }

  /** Every seeded user, signed in (one scrypt hash each: done once per file). */
  async seeded(): Promise<KitUsers> {
    const out = {} as KitUsers;
    for (const [k, email] of Object.entries({ ...SEEDED, admin2: SEEDED_ADMIN_2 }))
      out[k as keyof KitUsers] = await this.user(email);
    return out;
  }

  async uploadPatch(token: string, stage: 'dev' | 'release' = 'dev', size = 2048): Promise<Resource> {
    const name = uniq('patch');
    const form = new FormData();
    form.append('resourceFile', new Blob([new Uint8Array(randomBytes(size))]), `${name}.bin`);
    const r = await this.must<{ resource: string }>(201, `/resources/patch/${stage}?name=${name}`, {
      method: 'POST',
      token,
      body: form,
    });
    return jsonText<Resource>(r.body.resource);
  }

  async createPackage(token: string, resourceId: string, packageType: PackageType): Promise<Package> {
    const r = await this.must<{ package: string }>(201, `/resources/${resourceId}/generate-package`, {
      method: 'POST',
      token,
      body: { packageName: uniq('pkg'), packageType, note: 'Fixes the pump occlusion alarm threshold' },
    });
    return jsonText<Package>(r.body.package);
  }

  async createDcc(token: string): Promise<string> {
    const r = await this.must<{ dccUuid: string }>(201, '/dcc', {
      method: 'POST',
      token,
      body: { deviceId: uniq('device'), telemetryType: 'TelB', messageLimit: 64, deviceLimit: 4096 },
    });
    return r.body.dccUuid;
  }

  /** A DRAFT of `type` on a new resource, with a DCC attached: ready to be sent for approval. */
  async draft(u: KitUsers, type: PackageType): Promise<Package> {
    const stage = type.startsWith('RELEASE') ? 'release' : 'dev';
    const resource = await this.uploadPatch(u.designDev.token, stage);
    const pkg = await this.createPackage(u.designDev.token, resource.id, type);
    const dcc = await this.createDcc(u.designDev.token);
    await this.must(200, `/packages/${pkg.id}/dcc/${dcc}`, { method: 'POST', token: u.designDev.token });
    return pkg;
  }

  /** The body of a notify call for `pkg`: the policy's approvers (and the signer of a signed package). */
  notifyBody(u: KitUsers, pkg: Pick<Package, 'type' | 'signed'>) {
    const approvers = approversFor(u, pkg.type).map(({ role, id }) => ({ role, id }));
    return { approvers, ...(pkg.signed ? { signer: seededSigner(u).id } : {}) };
  }

  /** A package of `type` waiting for its approvals. */
  async notified(u: KitUsers, type: PackageType): Promise<Package> {
    const pkg = await this.draft(u, type);
    await this.must(200, `/packages/${pkg.id}/notify-approvers`, {
      method: 'POST',
      token: u.designDev.token,
      body: this.notifyBody(u, pkg),
    });
    return pkg;
  }

  /** The package as its details page reads it. */
  async details(id: string, token: string): Promise<Package> {
    const r = await this.must<{ package: string }>(200, `/packages/${id}/details`, { token });
    return jsonText<Package>(r.body.package);
  }

  /** Polls the package until `until` holds (60 s at most); the last state seen in the error. */
  async waitFor(id: string, token: string, until: (p: Package) => boolean, timeoutMs = 60_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const p = await this.details(id, token);
      if (until(p)) return p;
      if (Date.now() > deadline)
        throw new Error(`package ${id}: still ${p.status} ${JSON.stringify(p.generation ?? '')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  waitStatus(id: string, token: string, status: PackageStatus, timeoutMs?: number) {
    return this.waitFor(id, token, (p) => p.status === status, timeoutMs);
  }
}
