/**
 * The searched fields and sortable columns of the resource, DCC and user tables (spec §2.7, §2.8, §2.12, §5),
 * shared by the SPA's tables and the server's paged views (decision 221), so a page the server cut holds
 * exactly the rows the table would have shown from the whole list. Pure: no zod, no React.
 */

import { MSG } from '../messages';
import { filterRows, type SortValue, sortRows } from './list-view';
import type { Dcc } from './model/dcc';
import type { Package } from './model/package';
import type { Resource } from './model/resource';
import type { PublicUser } from './model/user';
import { PACKAGE_STATUS_TEXT } from './package-status-text';
import { roleLabel } from './roles';

export interface ListColumns<T, S extends string = string> {
  /** the values the case-insensitive substring search looks in (spec §5) */
  search: (row: T) => readonly SortValue[];
  /** the value each sortable column sorts by: what the table shows */
  sorts: { readonly [K in S]: (row: T) => SortValue };
}

/** Resource stages and types as people read them (spec §9). */
export const stageText = (stage: string) => (stage === 'RELEASE' ? MSG.stageRelease : MSG.stageDev);
export const resourceTypeText = (type: string) => (type === 'MODEL' ? MSG.tabModel : MSG.tabPatch);

/** /patches and /models (spec §2.7): searched by name and upload time. */
export const RESOURCE_LIST = {
  search: (r) => [r.name, r.uploadTime],
  sorts: {
    name: (r) => r.name,
    uploadTime: (r) => r.uploadTime,
    uploadedBy: (r) => r.uploadedBy?.name,
    modelName: (r) => r.modelName,
    modelVersion: (r) => r.modelVersion,
  },
} as const satisfies ListColumns<Resource>;

/** Admin resources (spec §2.12): searched by name, type or stage as shown. */
export const ADMIN_RESOURCE_LIST = {
  search: (r) => [r.name, resourceTypeText(r.resourceType), stageText(r.resourceStage)],
  sorts: {
    name: (r) => r.name,
    type: (r) => r.resourceType,
    stage: (r) => r.resourceStage,
    uploadedBy: (r) => r.uploadedBy?.name,
  },
} as const satisfies ListColumns<Resource>;

/** The DCC lists (spec §2.8, §2.12): searched by device id, limits and telemetry type. */
export const DCC_LIST = {
  search: (d) => [d.deviceId, d.deviceLimit, d.messageLimit, d.telemetryType],
  sorts: {
    deviceId: (d) => d.deviceId,
    telemetryType: (d) => d.telemetryType,
    deviceLimit: (d) => d.deviceLimit,
    messageLimit: (d) => d.messageLimit,
  },
} as const satisfies ListColumns<Dcc>;

/** The Role status column's text. */
export function roleStatusText(u: PublicUser): string {
  const status =
    u.roleStatus === 'REQUESTED'
      ? `Requested: ${roleLabel(u.requestedRole ?? u.userRole)}`
      : u.roleStatus === 'REFUSED'
        ? 'Refused'
        : u.roleStatus === 'NONE'
          ? 'No role requested yet'
          : 'Granted';
  return u.emailConfirmed === false ? `${status} (email not confirmed)` : status;
}

/** Admin users (spec §2.12): searched by name, email, role and status (and a proposal's admin). */
export const USER_LIST = {
  search: (u) => [
    u.name,
    u.email,
    u.userRole,
    roleLabel(u.userRole),
    roleStatusText(u),
    u.roleProposal ? `proposed ${u.roleProposal.proposedBy.name} ${u.roleProposal.proposedBy.email}` : '',
  ],
  sorts: {
    name: (u) => u.name,
    email: (u) => u.email,
    userRole: (u) => roleLabel(u.userRole),
    roleStatus: (u) => roleStatusText(u),
  },
} as const satisfies ListColumns<PublicUser>;

/** What a package list row needs to be searched and sorted: a whole package, or a compact index entry. */
export type PackageListRow = Pick<
  Package,
  'name' | 'resourceName' | 'note' | 'resourceType' | 'resourceStage' | 'signed' | 'status'
>;

/**
 * The package lists and the admin package table (spec §2.5, §2.6, §2.12, §5; decisions 210, 260): searched
 * by name, resource name and note; Signed? sorts as it shows (Yes / No), State by its words.
 */
export const PACKAGE_LIST = {
  search: (p) => [p.name, p.resourceName, p.note],
  sorts: {
    name: (p) => p.name,
    resourceName: (p) => p.resourceName,
    resourceType: (p) => p.resourceType,
    resourceStage: (p) => p.resourceStage,
    signed: (p) => (p.signed ? 'Yes' : 'No'),
    note: (p) => p.note,
    status: (p) => PACKAGE_STATUS_TEXT[p.status],
  },
} as const satisfies ListColumns<PackageListRow>;

export type SortKeys<C> = C extends { sorts: infer S } ? Extract<keyof S, string> : never;

/** One page of a list view: the rows from `offset` of the list searched and sorted by the table's rules. */
export interface ViewCut {
  offset: number;
  limit: number;
  search: string;
  sort?: { by: string; direction: 'ascending' | 'descending' };
}

/** The page the table would show, and the count of all matches (its 'from-to of total'). */
export function cutView<T>(
  rows: readonly T[],
  view: ViewCut,
  columns: ListColumns<T>,
): { rows: T[]; total: number } {
  const found = filterRows(rows, view.search, columns.search);
  const sort = view.sort;
  const sorted = sort
    ? sortRows(found, { columnId: sort.by, direction: sort.direction }, (row, by) => columns.sorts[by]?.(row))
    : found;
  return { rows: sorted.slice(view.offset, view.offset + view.limit), total: sorted.length };
}
