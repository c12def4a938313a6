import type { ResponseOf } from '@shared/api/contract';
import type { Package } from '@shared/api/contracts/packages';
import type { PublicUser } from '@shared/api/contracts/user';
import { PACKAGE_PAGE_DEFAULT } from '@shared/api/paging';
import type { RouteId } from '@shared/api/routes';
import { ACCESS_TOKEN_SCOPES } from '@shared/domain/access-tokens';
import { newPackageHeader } from '@shared/domain/header/header-rules';
import * as L from '@shared/domain/list-columns';
import * as S from '@shared/domain/package-lifecycle';
import { packageSourceOf } from '@shared/domain/package-source';
import { NON_ADMIN_ROLES } from '@shared/domain/roles';
import { API_ERR, MSG } from '@shared/messages';
import { DCCS, MOCK_PASSWORD, PACKAGES, PENDING_USER, RESOURCES, USERS } from './fixtures';
import { PACKAGE_FIXTURES } from './package-fixtures';
import { BUILD_PROVENANCE, SAMPLE_SBOM } from './provenance';

/**
 * Mock mode (spec §7: "fixed sample data replaces the calls"): the answer of each route of the route
 * table, a pure function of the call over the sample data, typed by the route's response contract (its
 * success status is the contract's too). Nothing is stored and no workflow rule runs here: a
 * write answers the fixed success of its route with the sample data unchanged. Every list is one generic
 * page, every detail a lookup by id.
 */

export interface Call {
  /** the signed-in sample user (from the bearer token), if any */
  user?: PublicUser;
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
}
/** A call refused as the API refuses it: a 4xx with `{ errorMessage }`. */
export const refusal = (status: number, errorMessage: string) => ({ refused: true, status, errorMessage });
export type Refusal = ReturnType<typeof refusal>;
export const isRefusal = (a: unknown): a is Refusal => typeof a === 'object' && a !== null && 'refused' in a;

export const SAMPLE_USERS: readonly PublicUser[] = [
  ...USERS.map((u) => ({ ...u, roleStatus: 'GRANTED' as const, emailConfirmed: true })),
  PENDING_USER,
];
const { packageId: pinned, pin } = BUILD_PROVENANCE;
/** The sample packages; in mock mode one of them pins a build provenance and SBOM. */
const ALL = [...PACKAGES, ...PACKAGE_FIXTURES].map((p) =>
  p.id === pinned ? { ...p, resourceFile: { ...p.resourceFile!, ...pin } } : p,
);
/** The token of a sample user in mock mode (stable, so a reload keeps the session). */
export const sampleToken = (userId = '') => `mock-token-${userId}`;

const text = (value: unknown) => JSON.stringify(value);
const packageOf = (c: Call) => ALL.find((p) => p.id === c.params.id) ?? ALL[0]!;
const packageText = (c: Call) => text(packageOf(c));
const resourceOf = (id?: string) => RESOURCES.find((r) => r.id === id);
const stageOf = (c: Call) => String(c.params.stage).toUpperCase();
const [resource, dcc, AT] = [RESOURCES[0]!, DCCS[0]!, '2024-05-01T08:00:00.000Z'];

/**
 * One generic page of any list (decisions 210, 221): with `offset`, `limit`, `search` or `sort`, the page
 * searched and sorted by the table's own rules (shared/domain/list-columns.ts) and `total`; without, the
 * whole list (packages with their total).
 */
const list =
  <T, K extends string>(key: K, columns: L.ListColumns<T>, rows: (c: Call) => readonly T[]) =>
  (c: Call): Refusal | (Record<K, string> & { total?: number }) => {
    const [all, get] = [rows(c), (k: string) => c.query.get(k) ?? undefined];
    const [sort, order] = [get('sort'), get('order') === 'desc' ? 'descending' : 'ascending'] as const;
    if (get('order') && !sort) return refusal(400, 'order needs sort');
    if (!['offset', 'limit', 'search', 'sort'].some((k) => c.query.has(k)))
      return { [key]: text(all), ...(key === 'packages' ? { total: all.length } : {}) } as Record<K, string>;
    const [offset, limit] = [Number(get('offset') ?? 0), Number(get('limit') ?? PACKAGE_PAGE_DEFAULT)];
    const sorted = sort ? { sort: { by: sort, direction: order } } : {};
    const cut = L.cutView(all, { offset, limit, search: get('search') ?? '', ...sorted }, columns);
    return { [key]: text(cut.rows), total: cut.total } as Record<K, string> & { total: number };
  };
/** A package list; with `drafts=mine`, only the caller's drafts of that list. */
const packages = (keep: (p: Package, c: Call) => boolean) =>
  list('packages', L.PACKAGE_LIST, (c) =>
    ALL.filter((p) => keep(p, c) && (c.query.get('drafts') !== 'mine' || mine(p, c))),
  );
const mine = (p: Package, c: Call) => p.status === 'DRAFT' && p.initiator.id === c.user?.id;
const resources = (type: string) =>
  list('resources', L.RESOURCE_LIST, (c) =>
    RESOURCES.filter((r) => r.resourceType === type && r.resourceStage === stageOf(c)),
  );

/** What the package waits for from the caller, as the sample data records it (no workflow rule decides). */
function waitingFor(p: Package, c: Call) {
  const waits = (list: 'approvers' | 'deliveryApprovers') =>
    p[list].some((a) => a.user.id === c.user?.id && !a.approved && !a.rejected);
  if (S.isWaitingForApproval(p.status) && waits(S.APPROVAL_ROUND.list)) return 'APPROVE';
  if (S.isWaitingForDelivery(p.status) && waits(S.DELIVERY_ROUND.list)) return 'APPROVE_DELIVERY';
  return S.isWaitingForSignature(p.status) && p.signer?.id === c.user?.id ? 'SIGN' : null;
}
const waiting = (c: Call, what: string, stage = stageOf(c)) =>
  text(ALL.filter((p) => (stage === 'DELIVER' || p.resourceStage === stage) && waitingFor(p, c) === what));
const candidates = (role: string, c: Call) =>
  SAMPLE_USERS.filter(
    (u) => u.userRole === role && u.roleStatus === 'GRANTED' && u.id !== packageOf(c).initiator.id,
  );

/** An access token of the signed-in sample user: the list shows it, nothing is stored. */
const accessToken = ({ body, user }: Call, state: 'ACTIVE' | 'REVOKED' = 'ACTIVE') => ({
  id: 'sample-token',
  name: String(body.name ?? 'CI upload'),
  scopes: [ACCESS_TOKEN_SCOPES[0]],
  state,
  owner: { id: user?.id ?? '', name: user?.name ?? '', email: user?.email ?? '' },
  createdAt: AT,
  expiresAt: '2099-01-01T00:00:00.000Z',
  ...(state === 'REVOKED' ? { revokedAt: AT } : {}),
});
const done = <S extends string>(status: S, message: string) => ({ status, message });
const decision = (c: Call) => ({
  outcome: 'WAITING_FOR_APPROVALS' as const,
  message: MSG.approvedWaiting,
  package: packageText(c),
});
const upload = <S extends 'VERIFYING' | 'REGISTERED'>(state: S) => ({
  uploadId: 'sample-upload',
  state,
  sizeBytes: resource.sizeBytes,
  message: MSG.uploaded,
  ...(state === 'REGISTERED' ? { verifiedBytes: resource.sizeBytes, resource: text(resource) } : {}),
});
const changes = (p: Package) => ({
  packageId: p.id,
  resourceType: resourceOf(p.resourceId)?.resourceType ?? 'PATCH',
  deviceId: p.dcc?.deviceId ?? null,
  previous: null,
  header: [],
  lists: [],
  files: [],
  dcc: [],
  headerCompared: false,
});
/** the earlier packages of a resource (with `deviceId`, of its type for that device), newest first. */
function sources(id: string, device: string | null) {
  const type = resourceOf(id)?.resourceType;
  const own = ALL.filter(
    (p) => p.resourceId === id || (p.resourceType === type && p.dcc?.deviceId === device),
  );
  own.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  const proposedId = own.find((p) => p.status !== 'DRAFT')?.id ?? null;
  const freeName = `${resourceOf(id)?.name ?? 'package'} sample`;
  return { packages: text(own.map((p) => packageSourceOf(p, id))), proposedId, freeName };
}
function headerOf(p: Package) {
  const resourceSizeBytes = resourceOf(p.resourceId)?.sizeBytes ?? 0;
  return text(newPackageHeader({ packageType: p.type, resourceSizeBytes }));
}

/** The audit screen's sample (mock mode): a registration and its grant, as the server records them. */
const SAMPLE_AUDIT = [
  {
    seq: 2,
    at: '2026-11-02T09:15:00.000Z',
    subject: 'USER#u-dev',
    action: 'ROLE_GRANTED',
    meaning: 'grants the requested role',
    actorId: 'u-admin',
    actorName: 'Ada Admin',
    actorRole: 'ADMIN',
    details: { role: 'DESIGN_ENGINEER_DEV' },
    prevHash: 'a'.repeat(64),
    hash: 'b'.repeat(64),
  },
  {
    seq: 1,
    at: '2026-11-01T08:00:00.000Z',
    subject: 'USER#u-dev',
    action: 'REGISTERED',
    meaning: 'registers and requests a role',
    actorId: 'u-dev',
    actorName: 'Dana Dev',
    actorRole: 'DESIGN_ENGINEER_DEV',
    prevHash: '0'.repeat(64),
    hash: 'a'.repeat(64),
  },
];

/** Each route's answer by its id (shared/api/routes.ts); a route not listed answers 501 in mock mode. */
// biome-ignore format: a table, one route a row
export const SAMPLE_ANSWERS: { [Id in RouteId]?: (c: Call) => ResponseOf<Id> | Refusal } = {
  login: (c) => {
    const user = SAMPLE_USERS.find((u) => u.email === String(c.body.login).trim().toLowerCase());
    if (!user || c.body.password !== MOCK_PASSWORD) return refusal(401, API_ERR.wrongPassword);
    return { token: sampleToken(user.id), user: text(user) };
  },
  auth: (c) => ({ user: text(c.user) }),
  logout: () => ({ status: 'SIGNED_OUT' }),
  register: (c) => ({ ...done('REGISTERED', MSG.registered), user: text({ ...PENDING_USER, name: c.body.name }) }),
  changePassword: (c) => ({ ...done('UPDATED', MSG.settingsSaved), token: sampleToken(c.user?.id) }),
  updateAccount: (c) => ({ user: text(c.user) }),
  resetPassword: () => done('SENT', MSG.resetMailSent),
  resendConfirmation: () => done('SENT', API_ERR.confirmationResent),
  confirmEmail: () => ({ ...done('CONFIRMED', API_ERR.emailConfirmed), email: PENDING_USER.email }),
  cancelRegistration: () => ({ ...done('CANCELLED', API_ERR.registrationCancelled), email: PENDING_USER.email }),
  listPatches: resources('PATCH'),
  listModels: resources('MODEL'),
  listPackages: packages((p, c) => p.resourceStage === stageOf(c)),
  listDeliveryPackages: packages((p) => p.deliveryApprovers.length > 0),
  adminListPackages: packages(() => true),
  listApprovalPackages: (c) => ({ packages: waiting(c, stageOf(c) === 'DELIVER' ? 'APPROVE_DELIVERY' : 'APPROVE') }),
  listSigningPackages: (c) => ({ packages: waiting(c, 'SIGN') }),
  listAttentionPackages: () => ({ stalled: text([]), rejected: text([]) }),
  listDcc: list('dcc', L.DCC_LIST, () => DCCS),
  adminListDcc: list('dcc', L.DCC_LIST, () => DCCS),
  adminListUsers: list('users', L.USER_LIST, () => SAMPLE_USERS),
  adminListResources: list('resources', L.ADMIN_RESOURCE_LIST, () => RESOURCES),
  listAccessTokens: (c) => ({ accessTokens: [accessToken(c)] }),
  // passkeys (decision 322): none in mock mode; their ceremonies need a browser and the local stack (501)
  // the mock stage names no company identity provider: the sign-in page shows the password form alone
  companySignOnInfo: () => ({ enabled: false }),
  listPasskeys: () => ({ passkeys: [], requiredForSignatures: false, stageRequiresPasskeys: false, requiredRoles: [] }),
  adminUserSignInMethods: (c) => ({ user: text(SAMPLE_USERS.find((u) => u.id === c.params.userId) ?? SAMPLE_USERS[0]), password: true, passkeys: [] }),
  packageDetails: (c) => {
    const p = ALL.find((x) => x.id === c.params.id);
    // the sample accounts all keep their roles: no sample package waits on someone who left
    return p ? { package: text(p), waitingFor: waitingFor(p, c), departures: [] } : refusal(404, 'Package not found');
  },
  packageHistory: () => ({ history: text([]), chainIntact: true, brokenAtSeq: null }),
  // mock mode shows a fixed sample of the trail; exports need the server's files (501)
  auditEvents: () => ({ events: text(SAMPLE_AUDIT), nextCursor: null, examined: SAMPLE_AUDIT.length, chains: [{ subject: 'USER#u-dev', intact: true, brokenAtSeq: null, lastSeq: 2, headHash: 'b'.repeat(64) }] }),
  getHeader: (c) => ({ header: headerOf(packageOf(c)) }),
  downloadPackage: (c) => ({ fileName: `${packageOf(c).name}.xml`, sizeBytes: 22, sha256: '0'.repeat(64), base64EncodedXMLPackage: btoa('<package>sample</package>') }),
  listApprovers: (c) => ({
    approvers: text(Object.fromEntries(NON_ADMIN_ROLES.map((role) => [role, candidates(role, c)]))),
    ...(c.query.get('signers') === 'true' ? { signers: text(candidates('SW_FW_RELEASE_ENGINEER', c)) } : {}),
  }),
  packageChanges: (c) => ({
    changes: text(changes(packageOf(c))), previousPackageId: null, message: packageOf(c).dcc ? MSG.noEarlierApproved : MSG.changesNoDevice,
    digest: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', // a fixed sample (decision 266: the comparison's SHA-256)
  }),
  packageSources: (c) => sources(c.params.id!, c.query.get('deviceId')),
  packageSbom: () => SAMPLE_SBOM,
  packageProvenanceStatement: () => BUILD_PROVENANCE.statement,
  // writes: the fixed success of the route, nothing changed
  generatePackage: () => ({ package: text(PACKAGES[0]) }),
  updateHeader: (c) => ({ header: headerOf(packageOf(c)) }),
  createDcc: () => ({ dccUuid: dcc.id, dcc: text(dcc) }),
  attachDcc: (c) => ({ package: packageText(c) }),
  updateDraft: (c) => ({ package: packageText(c) }),
  createAccessToken: (c) => ({ token: 'frp_sample-token_not-a-real-secret', accessToken: accessToken(c) }),
  revokeAccessToken: (c) => ({ accessToken: accessToken(c, 'REVOKED') }),
  notifyApprovers: (c) => ({ ...done('NOTIFIED', MSG.notified), package: packageText(c) }),
  notifyDeliveryApprovers: (c) => ({ ...done('NOTIFIED', MSG.notified), package: packageText(c) }),
  approvePackage: decision,
  approveDelivery: decision,
  signPackage: decision,
  retryGeneration: decision,
  rejectPackage: (c) => ({ ...done('REJECTED', MSG.rejectionConfirmed), package: packageText(c) }),
  rejectSigning: (c) => ({ ...done('REJECTED', MSG.rejectionConfirmed), package: packageText(c) }),
  // changes of people (decision 351): the server's words, the sample package unchanged
  reassignPackage: (c) => ({ message: 'The place was reassigned', package: packageText(c) }),
  withdrawPackage: (c) => ({ message: 'The package is a draft again', package: packageText(c) }),
  rejectDelivery: (c) => ({ ...done('REJECTED', MSG.rejectionConfirmed), package: packageText(c) }),
  uploadPatch: () => ({ resource: text(resource), message: MSG.uploaded }),
  uploadModel: () => ({ resource: text(resource), message: MSG.uploaded }),
  attachProvenance: () => ({ resource: text({ ...resource, ...pin }) }),
  requestResourceUpload: (c) => ({
    uploadId: 'sample-upload', resourceUrl: '/mock-storage/resource', expiresAt: '2099-01-01T00:00:00.000Z',
    ...(c.body.metadataFileName ? { metadataUrl: '/mock-storage/metadata' } : {}),
  }),
  confirmResourceUpload: () => upload('VERIFYING'),
  getResourceUpload: () => upload('REGISTERED'),
  adminDeletePackages: () => done('DELETED', MSG.deleted),
  adminDeleteDcc: () => done('DELETED', MSG.deleted),
  adminDeleteUsers: () => done('DELETED', MSG.deleted),
  adminDeleteResources: () => done('DELETED', MSG.deleted),
  adminDecideRoles: () => ({ status: 'DECIDED', message: API_ERR.rolesDecided, users: text([PENDING_USER]), outcomes: { [PENDING_USER.id]: 'PROPOSED' } }),
};
