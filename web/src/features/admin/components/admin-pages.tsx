import { Badge } from '@aws-amplify/ui-react';
import type { Dcc } from '@shared/api/contracts/dcc';
import type { Package } from '@shared/api/contracts/packages';
import type { Resource } from '@shared/api/contracts/resources';
import type { PublicUser } from '@shared/api/contracts/user';
import { ADMIN_RESOURCE_LIST, DCC_LIST, PACKAGE_LIST, USER_LIST } from '@shared/domain/list-columns';
import { isInFlight } from '@shared/domain/package-deletion';
import { roleLabel } from '@shared/domain/roles';
import { MSG } from '@shared/messages';
import { useState } from 'react';
import type { Column } from '@/components/ui/data-table/data-table';
import { anyGenerating, PackageStateBadge } from '@/components/ui/package-state';
import { resourceTypeLabel, stageLabel } from '@/utils/format';
import { AdminListPage } from './admin-list-page';
import { CompanyIdentityCell, CompanyLinkButtons } from './company-links';
import { DeletionProposalNote } from './deletion-proposal';
import { PasskeyRemovalButton, signInMethodsText } from './passkey-removal';
import {
  type DecisionReport,
  DecisionReportList,
  RoleDecisionButtons,
  RoleStatusCell,
  roleStatusText,
} from './role-decisions';

const PACKAGE_COLUMNS: readonly Column<Package>[] = [
  {
    id: 'name',
    header: 'Package name',
    cell: (p) =>
      p.mailFailures?.length ? (
        <>
          {p.name}{' '}
          <Badge
            variation="warning"
            size="small"
            title={p.mailFailures.map((f) => `${f.to}: ${f.subject} — ${f.reason}`).join('\n')}
          >
            Mail not delivered
          </Badge>
        </>
      ) : (
        p.name
      ),
    sortValue: PACKAGE_LIST.sorts.name,
  },
  {
    id: 'resourceName',
    header: 'Patch name',
    cell: (p) => p.resourceName,
    sortValue: PACKAGE_LIST.sorts.resourceName,
  },
  // the column ids are the server's sort names (decision 260): each sorts as the table shows it
  {
    id: 'signed',
    header: 'Signed?',
    cell: (p) => (p.signed ? 'Yes' : 'No'),
    sortValue: PACKAGE_LIST.sorts.signed,
  },
  { id: 'note', header: 'Note', cell: (p) => p.note, sortValue: PACKAGE_LIST.sorts.note },
  // a delivered, signed package must not look like a draft
  {
    id: 'status',
    header: 'State',
    // with the generation's progress or failure, refreshed while one runs (decision 178)
    cell: (p) => (
      <>
        <PackageStateBadge pkg={p} />
        <DeletionProposalNote proposal={p.deletionProposal} />
      </>
    ),
    sortValue: PACKAGE_LIST.sorts.status,
  },
];

/** Spec §2.12 admin packages; searched by name, resource name and note (§5), by the server (decision 260). */
export function AdminPackagesPage() {
  return (
    <AdminListPage
      kind="packages"
      title="Select package"
      columns={PACKAGE_COLUMNS}
      searchFields={PACKAGE_LIST.search}
      rowLabel={(p) => p.name}
      rowState={(p) => <PackageStateBadge pkg={p} />}
      rowInFlight={(p) => isInFlight(p.status)}
      rowTwoAdmins={(p) =>
        p.status === 'DELIVERED'
          ? { ...(p.deletionProposal ? { proposal: p.deletionProposal } : {}) }
          : undefined
      }
      noun="packages"
      refreshWhile={anyGenerating}
    />
  );
}

const bytes = (n: number) => `${n.toLocaleString('en-US')} B`;

const DCC_COLUMNS: readonly Column<Dcc>[] = [
  { id: 'deviceId', header: 'Device ID', cell: (d) => d.deviceId, sortValue: (d) => d.deviceId },
  {
    id: 'telemetryType',
    header: 'Telemetry type',
    cell: (d) => d.telemetryType,
    sortValue: (d) => d.telemetryType,
  },
  // the same unit as the engineers' DCC list (dcc-list-page.tsx): bytes, with thousands separators
  {
    id: 'deviceLimit',
    header: 'Device limit',
    cell: (d) => bytes(d.deviceLimit),
    sortValue: (d) => d.deviceLimit,
  },
  {
    id: 'messageLimit',
    header: 'Message limit',
    cell: (d) => bytes(d.messageLimit),
    sortValue: (d) => d.messageLimit,
  },
];

/** Spec §2.12 admin DCC; searched by device id, limits and telemetry type (§5). */
export function AdminDccPage() {
  return (
    <AdminListPage
      kind="dcc"
      title="Select DCC"
      columns={DCC_COLUMNS}
      searchFields={DCC_LIST.search}
      rowLabel={(d) => d.deviceId}
      rowState={(d) => `Telemetry type: ${d.telemetryType}`}
      noun="DCCs"
    />
  );
}

const USER_COLUMNS: readonly Column<PublicUser>[] = [
  { id: 'name', header: 'User name', cell: (u) => u.name, sortValue: (u) => u.name },
  { id: 'email', header: 'User email', cell: (u) => u.email, sortValue: (u) => u.email },
  {
    id: 'userRole',
    header: 'User role',
    cell: (u) => roleLabel(u.userRole),
    sortValue: (u) => roleLabel(u.userRole),
  },
  {
    id: 'roleStatus',
    header: 'Role status',
    // with a pending grant and its proposer under the status
    cell: (u) => (
      <>
        <RoleStatusCell user={u} />
        <DeletionProposalNote proposal={u.deletionProposal} subjectId={u.id} />
      </>
    ),
    sortValue: (u) => roleStatusText(u),
  },
  {
    id: 'signIn',
    header: 'Sign-in',
    // how the account signs in: its password, its passkeys (decision 323), its company identity (decision
    // 315). Not sortable: the server sorts the users' list by the columns of USER_SORTS only (decision 221)
    cell: (u) => (
      <span className="frp-cell-lines">
        <span>{signInMethodsText(u)}</span>
        {u.companyIdentity || u.companyLinkRequest ? <CompanyIdentityCell user={u} /> : null}
      </span>
    ),
  },
];

/**
 * Spec §2.12 admin users, with the note about re-registering; searched by name, email, role and status
 * (§5). Waiting requests and grant proposals come first, so none sits unseen on a later page.
 */
export function AdminUsersPage() {
  const [report, setReport] = useState<DecisionReport | null>(null);
  return (
    <>
      {report ? <DecisionReportList report={report} /> : null}
      <AdminListPage
        kind="users"
        title="Select user"
        columns={USER_COLUMNS}
        searchFields={USER_LIST.search}
        rowLabel={(u) => `${u.name} (${u.email})`}
        rowState={(u) => `${roleLabel(u.userRole)} · ${roleStatusText(u)}`}
        rowTwoAdmins={(u) =>
          u.userRole === 'ADMIN' || u.deletionProposal
            ? { ...(u.deletionProposal ? { proposal: u.deletionProposal } : {}) }
            : undefined
        }
        rowSigned={() => true}
        noun="users"
        note={MSG.adminReRegisterNote}
        extraActions={(ctx) => (
          <>
            <RoleDecisionButtons {...ctx} onReport={setReport} />
            <CompanyLinkButtons {...ctx} />
            <PasskeyRemovalButton {...ctx} />
          </>
        )}
      />
    </>
  );
}

const RESOURCE_COLUMNS: readonly Column<Resource>[] = [
  { id: 'name', header: 'Resource name', cell: (r) => r.name, sortValue: (r) => r.name },
  {
    id: 'type',
    header: 'Type',
    cell: (r) => resourceTypeLabel(r.resourceType),
    sortValue: (r) => r.resourceType,
  },
  {
    id: 'stage',
    header: 'Stage',
    cell: (r) => stageLabel(r.resourceStage),
    sortValue: (r) => r.resourceStage,
  },
  {
    id: 'uploadedBy',
    header: 'Uploaded By',
    cell: (r) => r.uploadedBy?.name,
    sortValue: (r) => r.uploadedBy?.name,
  },
];

/** Spec §2.12 admin resources: 'Select resource'; searched by name, type or stage (§5). */
export function AdminResourcesPage() {
  return (
    <AdminListPage
      kind="resources"
      title={MSG.selectResource}
      columns={RESOURCE_COLUMNS}
      searchFields={ADMIN_RESOURCE_LIST.search}
      rowLabel={(r) => r.name}
      rowState={(r) => `${resourceTypeLabel(r.resourceType)} · ${stageLabel(r.resourceStage)}`}
      noun="resources"
    />
  );
}
