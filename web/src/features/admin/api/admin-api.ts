import type { Dcc } from '@shared/api/contracts/dcc';
import type { Package, SignatureProof } from '@shared/api/contracts/packages';
import { dccSchema, packageSchema, resourceSchema } from '@shared/api/contracts/records';
import type { Resource } from '@shared/api/contracts/resources';
import type { PublicUser } from '@shared/api/contracts/user';
import { publicUserSchema } from '@shared/api/contracts/user';
import type { Role } from '@shared/domain/roles';
import { getAllPages } from '@/lib/api-client/all-pages';
import { type ApiResult, callApi, routePath } from '@/lib/api-client/api-client';
import { getListView, type ListView } from '@/lib/api-client/list-view';
import { getWholeList } from '@/lib/api-client/whole-list';
import type { TableView } from '@/lib/table/table-logic';

/** The four admin lists (spec §2.12): path and the field that carries the list as JSON text. */
export const ADMIN_KINDS = {
  packages: { list: 'adminListPackages', remove: 'adminDeletePackages', field: 'packages' },
  dcc: { list: 'adminListDcc', remove: 'adminDeleteDcc', field: 'dcc' },
  users: { list: 'adminListUsers', remove: 'adminDeleteUsers', field: 'users' },
  resources: { list: 'adminListResources', remove: 'adminDeleteResources', field: 'resources' },
} as const;

export type AdminKind = keyof typeof ADMIN_KINDS;

/** The schema each admin list's rows are read with (decision 238). */
const ADMIN_ROW_SCHEMAS = {
  packages: packageSchema,
  dcc: dccSchema,
  users: publicUserSchema,
  resources: resourceSchema,
} as const;

/**
 * One page of an admin list as the table shows it (decisions 221, 260: every admin table, packages too);
 * `quiet`: a background refresh.
 */
export function listAdminView<K extends AdminKind>(
  kind: K,
  view: TableView,
  signal?: AbortSignal,
  quiet = false,
): Promise<ApiResult<ListView<AdminRows[K]>>> {
  const { list, field } = ADMIN_KINDS[kind];
  return getListView(routePath(list), ADMIN_ROW_SCHEMAS[kind], view, signal, quiet, field) as Promise<
    ApiResult<ListView<AdminRows[K]>>
  >;
}

export interface AdminRows {
  packages: Package;
  dcc: Dcc;
  users: PublicUser;
  resources: Resource;
}

/** An admin list; `quiet`: a background refresh (decision 178), no loader, no popup. */
export async function listAdmin<K extends AdminKind>(
  kind: K,
  signal?: AbortSignal,
  quiet = false,
): Promise<ApiResult<AdminRows[K][]>> {
  const { list, field } = ADMIN_KINDS[kind];
  const path = routePath(list);
  // every package ever made: read page by page (the admin table reads one view page instead, decision 260)
  if (kind === 'packages')
    return getAllPages(path, field, packageSchema, { signal, quiet }) as Promise<ApiResult<AdminRows[K][]>>;
  // validated by the kind's schema; the cast only names which of the four row types K is
  return getWholeList(path, field, ADMIN_ROW_SCHEMAS[kind], { signal, quiet }) as Promise<
    ApiResult<AdminRows[K][]>
  >;
}

/**
 * POST /admin/users/roles: grant (signed with `password`; two admins: proposes, or confirms another admin's
 * proposal) or refuse the requested roles of the selected users. The answer's `outcomes` says
 * per id PROPOSED, GRANTED or REFUSED.
 */
export function decideRoles(
  decision: 'grant' | 'refuse',
  ids: readonly string[],
  /** the role each user asked for as the list showed it: the server refuses if one asked for another since */
  roles?: Readonly<Record<string, Role>>,
  proof?: SignatureProof,
  /** a refusal or revocation: why (decision 357) */
  reason?: string,
) {
  return callApi(
    'adminDecideRoles',
    {
      body: {
        ...(decision === 'grant' ? { grant: [...ids] } : { refuse: [...ids] }),
        ...(roles ? { roles: { ...roles } } : {}),
        ...(reason !== undefined ? { reason } : {}),
        ...proof,
      },
    },
    { handle: [400, 403, 404, 409] },
  );
}

/**
 * DELETE with the ids as a JSON list; 409 (still referenced) is shown as a warning by the caller. Packages
 * in flight are deleted with the admin's signature: `{ ids, password, reason }`; the caller
 * shows a 400 (a package went in flight meanwhile) as a warning and keeps the dialog open on a wrong
 * password (403).
 */
export function deleteAdmin(
  kind: AdminKind,
  ids: readonly string[],
  signature?: SignatureProof & { reason: string },
) {
  if (kind === 'packages')
    return callApi(
      'adminDeletePackages',
      { body: signature ? { ids: [...ids], ...signature } : [...ids] },
      { handle: [400, 403, 409] },
    );
  // signed with a reason; an administrator or the last holder of a needed role takes two (decisions 336, 357)
  if (kind === 'users')
    return callApi(
      'adminDeleteUsers',
      { body: signature ? { ids: [...ids], ...signature } : [...ids] },
      { handle: [400, 403, 409] },
    );
  return callApi(ADMIN_KINDS[kind].remove, { body: [...ids] }, { handle: [409] });
}

/**
 * POST /admin/users/company-links (decision 315): LINK (signed: one admin proposes, a second confirms),
 * REFUSE a requested link, UNLINK (signed).
 */
export function decideCompanyLinks(
  decision: 'LINK' | 'REFUSE' | 'UNLINK',
  ids: readonly string[],
  proof: SignatureProof = {},
) {
  return callApi(
    'adminDecideCompanyLinks',
    { body: { ids: [...ids], decision, ...proof } },
    { handle: [400, 403, 404, 409, 429] },
  );
}

/** GET /admin/users/{userId}/sign-in-methods: the password and the passkeys (decision 323). */
export function signInMethodsOf(userId: string) {
  return callApi('adminUserSignInMethods', { params: { userId } }, { handle: 'all', loader: false });
}

/** POST …/passkeys/{passkeyId}/removal: proposes, or confirms another admin's proposal (signed, a reason). */
export function decidePasskeyRemoval(
  userId: string,
  passkeyId: string,
  proof: SignatureProof,
  reason: string,
) {
  return callApi(
    'adminDecidePasskeyRemoval',
    { params: { userId, passkeyId }, body: { ...proof, reason } },
    { handle: [400, 403, 404, 409, 429] },
  );
}
