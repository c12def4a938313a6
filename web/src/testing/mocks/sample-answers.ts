import { tableViewRequest } from '@shared/api/contracts/list-view';
import type { Package } from '@shared/api/contracts/packages';
import type { PublicUser } from '@shared/api/contracts/user';
import { newPackageHeader } from '@shared/domain/header/header-rules';
import {
  ADMIN_RESOURCE_LIST,
  cutView,
  DCC_LIST,
  type ListColumns,
  PACKAGE_LIST,
  RESOURCE_LIST,
  USER_LIST,
} from '@shared/domain/list-columns';
import { filterRows, sortRows } from '@shared/domain/list-view';
import {
  APPROVAL_ROUND,
  DELIVERY_ROUND,
  isWaitingForApproval,
  isWaitingForDelivery,
  isWaitingForSignature,
} from '@shared/domain/package-lifecycle';
import { packageSourceOf } from '@shared/domain/package-source';
import { NON_ADMIN_ROLES } from '@shared/domain/roles';
import { API_ERR, MSG } from '@shared/messages';
import { DCCS, MOCK_PASSWORD, PACKAGES, PENDING_USER, RESOURCES, USERS } from './fixtures';
import { PACKAGE_FIXTURES } from './package-fixtures';

/**
 * Mock mode (spec §7: "fixed sample data replaces the calls"): the answer of each route of the route
 * table, from the sample data, as a pure function of the call. Nothing is stored and no rule of the
 * workflow runs here (issue 26): a write answers the fixed success of its route with the sample data
 * unchanged, so a page shows how the answer looks, not what the server would have done.
 */

export interface Call {
  /** the signed-in sample user (from the bearer token), if any */
  user?: PublicUser;
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
}

export type Answer = { status?: number; body: Record<string, unknown> };

export const SAMPLE_USERS: readonly PublicUser[] = [
  ...USERS.map((u) => ({ ...u, roleStatus: 'GRANTED' as const, emailConfirmed: true })),
  PENDING_USER,
];
const PACKAGES_ALL: readonly Package[] = [...PACKAGES, ...PACKAGE_FIXTURES];

/** The token of a sample user in mock mode (stable, so a reload keeps the session). */
export const sampleToken = (userId: string) => `mock-token-${userId}`;

const text = (value: unknown) => JSON.stringify(value);
const fail = (status: number, errorMessage: string): Answer => ({ status, body: { errorMessage } });
const packageOf = (c: Call) => PACKAGES_ALL.find((p) => p.id === c.params.id) ?? PACKAGES_ALL[0]!;
const done = (status: string, message: string, c?: Call): Answer => ({
  body: { status, message, ...(c ? { package: text(packageOf(c)) } : {}) },
});

/** One page of a list as the list views ask for it (decision 210), by the shared search and sort rules. */
function page(c: Call, rows: readonly Package[]): Answer {
  if (c.query.get('drafts') === 'mine')
    return {
      body: { packages: text(rows.filter((p) => p.status === 'DRAFT' && p.initiator.id === c.user?.id)) },
    };
  const found = filterRows(rows, c.query.get('search') ?? '', PACKAGE_LIST.search);
  const sort = c.query.get('sort');
  const sorted = sort
    ? sortRows(
        found,
        { columnId: sort, direction: c.query.get('order') === 'desc' ? 'descending' : 'ascending' },
        (p, by) => PACKAGE_LIST.sorts[by as keyof typeof PACKAGE_LIST.sorts]?.(p),
      )
    : found;
  const offset = Number(c.query.get('offset') ?? 0);
  const limit = Number(c.query.get('limit') ?? sorted.length);
  return { body: { packages: text(sorted.slice(offset, offset + limit)), total: sorted.length } };
}

const waitsFor = (p: Package, list: 'approvers' | 'deliveryApprovers', c: Call) =>
  p[list].some((a) => a.user.id === c.user?.id && !a.approved && !a.rejected);

function waitingFor(p: Package, c: Call): string | null {
  if (isWaitingForApproval(p.status) && waitsFor(p, APPROVAL_ROUND.list, c)) return 'APPROVE';
  if (isWaitingForDelivery(p.status) && waitsFor(p, DELIVERY_ROUND.list, c)) return 'APPROVE_DELIVERY';
  if (isWaitingForSignature(p.status) && p.signer?.id === c.user?.id) return 'SIGN';
  return null;
}

const candidates = () => SAMPLE_USERS.filter((u) => u.userRole !== 'ADMIN' && u.roleStatus === 'GRANTED');
const stageOf = (c: Call) => String(c.params.stage).toUpperCase();
/**
 * A resource, DCC or user list as the real API answers it (decision 221): with `offset`, `limit`, `search`
 * or `sort`, one page searched and sorted by the tables' own rules (shared/domain/list-columns.ts) and
 * `total`; without, the whole list. Data only: the same cut the server makes, no workflow.
 */
function tableView<T>(c: Call, rows: readonly T[], columns: ListColumns<T>, key: string): Answer {
  const num = (k: string) => (c.query.has(k) ? Number(c.query.get(k)) : undefined);
  const str = (k: string) => c.query.get(k) ?? undefined;
  const order = str('order');
  let view: ReturnType<typeof tableViewRequest>;
  try {
    view = tableViewRequest({
      offset: num('offset'),
      limit: num('limit'),
      search: str('search'),
      sort: str('sort'),
      order: order === 'asc' || order === 'desc' ? order : undefined,
    });
  } catch (e) {
    return fail(400, (e as Error).message);
  }
  if (!view) return { body: { [key]: text(rows) } };
  const cut = cutView(rows, view, columns);
  return { body: { [key]: text(cut.rows), total: cut.total } };
}

const resourcesOf = (type: 'PATCH' | 'MODEL') => (c: Call) =>
  tableView(
    c,
    RESOURCES.filter((r) => r.resourceType === type && r.resourceStage === stageOf(c)),
    RESOURCE_LIST,
    'resources',
  );
/** An access token of the signed-in sample user (issue 27): the list shows it, nothing is stored. */
const accessToken = (c: Call, state: 'ACTIVE' | 'REVOKED' = 'ACTIVE') => ({
  id: 'sample-token',
  name: String(c.body.name ?? 'CI upload'),
  scopes: ['resources:upload'],
  owner: { id: c.user?.id ?? '', name: c.user?.name ?? '', email: c.user?.email ?? '' },
  createdAt: '2024-05-01T08:00:00.000Z',
  expiresAt: '2099-01-01T00:00:00.000Z',
  ...(state === 'REVOKED' ? { revokedAt: '2024-05-02T08:00:00.000Z' } : {}),
  state,
});

/**
 * The earlier packages of a resource to start a new one from (issue 25), newest first; with `deviceId`, also
 * the packages of the same resource type whose DCC names that device (decision 268).
 */
const packageSources = (c: Call): Answer => {
  const type = RESOURCES.find((r) => r.id === c.params.id)?.resourceType;
  const device = c.query.get('deviceId');
  const own = PACKAGES_ALL.filter(
    (p) =>
      p.resourceId === c.params.id ||
      (device !== null && p.resourceType === type && p.dcc?.deviceId === device),
  ).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  const proposed = own.find((p) => p.status !== 'DRAFT');
  return {
    body: {
      packages: text(own.map((p) => packageSourceOf(p, c.params.id))),
      proposedId: proposed?.id ?? null,
      freeName: `${RESOURCES.find((r) => r.id === c.params.id)?.name ?? 'package'} sample`,
    },
  };
};

const decision = (c: Call): Answer => {
  const p = packageOf(c);
  return {
    body: {
      outcome: 'WAITING_FOR_APPROVALS',
      message: MSG.approvedWaiting,
      package: text(p),
      ...(p.linkToS3 ? { generatedXmlS3Link: p.linkToS3 } : {}),
    },
  };
};

/** Each route's answer by its id (shared/api/routes.ts); a route not listed answers 501 in mock mode. */
export const SAMPLE_ANSWERS: Record<string, (c: Call) => Answer> = {
  login: (c) => {
    const user = SAMPLE_USERS.find(
      (u) =>
        u.email ===
        String(c.body.login ?? '')
          .trim()
          .toLowerCase(),
    );
    if (!user || c.body.password !== MOCK_PASSWORD) return fail(401, API_ERR.wrongPassword);
    return { body: { token: sampleToken(user.id), user: text(user) } };
  },
  auth: (c) => ({ body: { user: text(c.user) } }),
  logout: () => ({ body: { status: 'SIGNED_OUT' } }),
  register: (c) => ({
    status: 201,
    body: {
      status: 'REGISTERED',
      message: MSG.registered,
      user: text({ ...PENDING_USER, name: c.body.name ?? PENDING_USER.name }),
    },
  }),
  changePassword: (c) => ({
    body: { status: 'UPDATED', message: MSG.settingsSaved, token: sampleToken(c.user?.id ?? '') },
  }),
  updateAccount: (c) => ({ body: { user: text(c.user) } }),
  resetPassword: () => done('SENT', MSG.resetMailSent),
  resendConfirmation: () => done('SENT', API_ERR.confirmationResent),
  confirmEmail: () => ({
    body: { status: 'CONFIRMED', message: API_ERR.emailConfirmed, email: PENDING_USER.email },
  }),
  cancelRegistration: () => ({
    body: { status: 'CANCELLED', message: API_ERR.registrationCancelled, email: PENDING_USER.email },
  }),
  listPatches: resourcesOf('PATCH'),
  listModels: resourcesOf('MODEL'),
  listPackages: (c) =>
    page(
      c,
      PACKAGES_ALL.filter((p) => p.resourceStage === stageOf(c)),
    ),
  listDeliveryPackages: (c) =>
    page(
      c,
      PACKAGES_ALL.filter((p) => p.deliveryApprovers.length > 0),
    ),
  listApprovalPackages: (c) => ({
    body: {
      packages: text(
        PACKAGES_ALL.filter((p) =>
          stageOf(c) === 'DELIVER'
            ? waitingFor(p, c) === 'APPROVE_DELIVERY'
            : p.resourceStage === stageOf(c) && waitingFor(p, c) === 'APPROVE',
        ),
      ),
    },
  }),
  listSigningPackages: (c) => ({
    body: {
      packages: text(
        PACKAGES_ALL.filter((p) => p.resourceStage === stageOf(c) && waitingFor(p, c) === 'SIGN'),
      ),
    },
  }),
  packageDetails: (c) => {
    const p = PACKAGES_ALL.find((x) => x.id === c.params.id);
    return p ? { body: { package: text(p), waitingFor: waitingFor(p, c) } } : fail(404, 'Package not found');
  },
  packageHistory: () => ({ body: { history: text([]), chainIntact: true, brokenAtSeq: null } }),
  getHeader: (c) => {
    const p = packageOf(c);
    const size = RESOURCES.find((r) => r.id === p.resourceId)?.sizeBytes ?? 0;
    return { body: { header: text(newPackageHeader({ packageType: p.type, resourceSizeBytes: size })) } };
  },
  downloadPackage: (c) => ({
    body: {
      fileName: `${packageOf(c).name}.xml`,
      sizeBytes: 22,
      sha256: '0'.repeat(64),
      base64EncodedXMLPackage: btoa('<package>sample</package>'),
    },
  }),
  listApprovers: (c) => ({
    body: {
      approvers: text(
        Object.fromEntries(
          NON_ADMIN_ROLES.map((role) => [
            role,
            candidates().filter((u) => u.userRole === role && u.id !== packageOf(c).initiator.id),
          ]),
        ),
      ),
      ...(c.query.get('signers') === 'true'
        ? { signers: text(candidates().filter((u) => u.userRole === 'SW_FW_RELEASE_ENGINEER')) }
        : {}),
    },
  }),
  packageChanges: (c) => {
    const p = packageOf(c);
    return {
      body: {
        changes: text({
          packageId: p.id,
          resourceType: RESOURCES.find((r) => r.id === p.resourceId)?.resourceType ?? 'PATCH',
          deviceId: p.dcc?.deviceId ?? null,
          previous: null,
          header: [],
          lists: [],
          files: [],
          dcc: [],
          headerCompared: false,
        }),
        previousPackageId: null,
        message: p.dcc ? MSG.noEarlierApproved : MSG.changesNoDevice,
        // a fixed sample digest (decision 266: the real one is the comparison's SHA-256)
        digest: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      },
    };
  },
  packageSources,
  listAccessTokens: (c) => ({ body: { accessTokens: [accessToken(c)] } }),
  listDcc: (c) => tableView(c, DCCS, DCC_LIST, 'dcc'),
  adminListDcc: (c) => tableView(c, DCCS, DCC_LIST, 'dcc'),
  adminListUsers: (c) => tableView(c, SAMPLE_USERS, USER_LIST, 'users'),
  adminListResources: (c) => tableView(c, RESOURCES, ADMIN_RESOURCE_LIST, 'resources'),
  adminListPackages: (c) => page(c, PACKAGES_ALL),
  // writes: the fixed success of the route, nothing changed
  generatePackage: () => ({ status: 201, body: { package: text(PACKAGES[0]) } }),
  updateHeader: (c) => SAMPLE_ANSWERS.getHeader!(c),
  createDcc: () => ({ status: 201, body: { dccUuid: DCCS[0]!.id, dcc: text(DCCS[0]) } }),
  attachDcc: (c) => ({ body: { package: text(packageOf(c)) } }),
  updateDraft: (c) => ({ body: { package: text(packageOf(c)) } }),
  createAccessToken: (c) => ({
    status: 201,
    body: { token: 'frp_sample-token_not-a-real-secret', accessToken: accessToken(c) },
  }),
  revokeAccessToken: (c) => ({ body: { accessToken: accessToken(c, 'REVOKED') } }),
  notifyApprovers: (c) => done('NOTIFIED', MSG.notified, c),
  notifyDeliveryApprovers: (c) => done('NOTIFIED', MSG.notified, c),
  approvePackage: decision,
  approveDelivery: decision,
  signPackage: decision,
  retryGeneration: decision,
  rejectPackage: (c) => done('REJECTED', MSG.rejectionConfirmed, c),
  rejectSigning: (c) => done('REJECTED', MSG.rejectionConfirmed, c),
  rejectDelivery: (c) => done('REJECTED', MSG.rejectionConfirmed, c),
  uploadPatch: () => ({ status: 201, body: { resource: text(RESOURCES[0]), message: MSG.uploaded } }),
  uploadModel: () => ({ status: 201, body: { resource: text(RESOURCES[0]), message: MSG.uploaded } }),
  requestResourceUpload: (c) => ({
    body: {
      uploadId: 'sample-upload',
      resourceUrl: '/mock-storage/resource',
      ...(c.body.metadataFileName ? { metadataUrl: '/mock-storage/metadata' } : {}),
      expiresAt: '2099-01-01T00:00:00.000Z',
    },
  }),
  confirmResourceUpload: () => ({
    status: 202,
    body: {
      uploadId: 'sample-upload',
      state: 'VERIFYING',
      sizeBytes: RESOURCES[0]!.sizeBytes,
      message: MSG.uploaded,
    },
  }),
  getResourceUpload: () => ({
    body: {
      uploadId: 'sample-upload',
      state: 'REGISTERED',
      sizeBytes: RESOURCES[0]!.sizeBytes,
      verifiedBytes: RESOURCES[0]!.sizeBytes,
      resource: text(RESOURCES[0]),
      message: MSG.uploaded,
    },
  }),
  adminDeletePackages: () => done('DELETED', MSG.deleted),
  adminDeleteDcc: () => done('DELETED', MSG.deleted),
  adminDeleteUsers: () => done('DELETED', MSG.deleted),
  adminDeleteResources: () => done('DELETED', MSG.deleted),
  adminDecideRoles: () => ({
    body: {
      status: 'DECIDED',
      message: API_ERR.rolesDecided,
      users: text([PENDING_USER]),
      outcomes: { [PENDING_USER.id]: 'PROPOSED' },
    },
  }),
};
