import type { Package, PackageType, WaitingFor } from '@shared/api/contracts/packages';
import { assertNever } from '@shared/domain/assert-never';
import {
  ACTOR_ROLE,
  isDeliverable,
  isGenerated as isGeneratedStatus,
} from '@shared/domain/package-lifecycle';
import { deliveryLabel, isDeliverableType, isSignedType, listStatus } from '@shared/domain/package-rules';
import type { Role } from '@shared/domain/roles';
import { MSG } from '@shared/messages';
import { paths } from '@/config/paths';
import { routePath } from '@/lib/api-client/route-path';
import type { FlowPurpose } from '@/lib/session/session-store';

/**
 * The pure rules of the package screens: which list a tab loads and which flow it sets (spec §4.1,
 * §4.8), where a row click leads (spec §4.4), what the header view's buttons do, and the download
 * page's title (spec §2.8). No React, no calls: the tests read them as the spec's tables.
 */

/** The three list pages: /packages, /packages/approve and /packages/sign (spec §2.5, §2.6). */
export type ListKind = 'packages' | 'approve' | 'sign';
export type ListTab = 'DEV' | 'RELEASE' | 'DELIVERY';

export const LIST_TABS: Record<ListKind, readonly ListTab[]> = {
  packages: ['DEV', 'RELEASE', 'DELIVERY'],
  approve: ['DEV', 'RELEASE', 'DELIVERY'],
  sign: ['DEV', 'RELEASE'],
};

export const TAB_LABELS: Record<ListTab, string> = {
  DEV: MSG.tabDevelopment,
  RELEASE: MSG.tabRelease,
  DELIVERY: MSG.tabDelivery,
};

/** Spec §4.8: a tab sets the flow purpose to its stage; the approval and signing lists set theirs. */
export function tabFlow(kind: ListKind, tab: ListTab): FlowPurpose {
  if (kind === 'approve') return tab === 'DELIVERY' ? 'approve-delivery' : 'approve';
  if (kind === 'sign') return 'sign';
  return tab === 'DEV' ? 'dev' : tab === 'RELEASE' ? 'release' : 'delivery';
}

/** The API path of a list (spec §7; lists come back as JSON text under `packages`). */
export function listApiPath(kind: ListKind, tab: ListTab): string {
  const stage = { stage: tab === 'DELIVERY' && kind === 'approve' ? 'deliver' : tab.toLowerCase() };
  if (kind === 'packages')
    return tab === 'DELIVERY' ? routePath('listDeliveryPackages') : routePath('listPackages', stage);
  return routePath(kind === 'approve' ? 'listApprovalPackages' : 'listSigningPackages', stage);
}

/** Spec §2.6: the header text of the approval and signing lists; the package list has its own. */
export function listTitle(kind: ListKind, tab: ListTab): string {
  if (kind === 'approve')
    return tab === 'DEV'
      ? MSG.approveDevPackageTitle
      : tab === 'RELEASE'
        ? MSG.approveReleasePackageTitle
        : MSG.approveDeliveryPackageTitle;
  if (kind === 'sign') return tab === 'DEV' ? MSG.signDevPackageTitle : MSG.signReleasePackageTitle;
  return 'Packages';
}

/** The tab a list opens on: the one the session's flow (and current package) came from. */
export function initialTab(
  kind: ListKind,
  flow: FlowPurpose,
  current: Pick<Package, 'type'> | null,
): ListTab {
  if (kind === 'packages') return flow === 'release' ? 'RELEASE' : flow === 'delivery' ? 'DELIVERY' : 'DEV';
  if (kind === 'approve' && flow === 'approve-delivery') return 'DELIVERY';
  const sameKind = (kind === 'approve' && flow === 'approve') || (kind === 'sign' && flow === 'sign');
  return sameKind && current?.type.startsWith('RELEASE_') ? 'RELEASE' : 'DEV';
}

/** Spec §4.3: labels and row highlighting do not appear in the approval flows. */
export function showsStatus(flow: FlowPurpose): boolean {
  return flow === 'dev' || flow === 'release' || flow === 'delivery';
}

/** Spec §4.3: 'Package rejected' / 'Approval pending: X/Y' of a delivery row, outside approval flows. */
export function rowLabel(pkg: Pick<Package, 'type' | 'deliveryApprovers'>, flow: FlowPurpose): string | null {
  return showsStatus(flow) ? deliveryLabel(pkg) : null;
}

/** The class that highlights a labelled row (rejected or pending), outside approval flows. */
export function rowHighlight(
  pkg: Pick<Package, 'type' | 'deliveryApprovers'>,
  flow: FlowPurpose,
): 'rejected' | 'pending' | null {
  if (!rowLabel(pkg, flow)) return null;
  const status = listStatus(pkg);
  return status === 'REJECTED' ? 'rejected' : status === 'PENDING' ? 'pending' : null;
}

export interface RowTarget {
  path: string;
  subHeader: string;
}

/**
 * Spec §4.4 row click: the signing flow opens the sign view ('DEVELOPMENT/RELEASE PACKAGE APPROVED'),
 * the approval flows the approve view (with their list's header), and the other flows route by the
 * derived status: development, rejected (checked before pending), pending, or any other package.
 */
export function rowClickTarget(
  pkg: Pick<Package, 'type' | 'deliveryApprovers'> & Partial<Pick<Package, 'status'>>,
  flow: FlowPurpose,
): RowTarget {
  const dev = pkg.type.startsWith('DEV_');
  if (flow === 'sign')
    return {
      path: paths.packages.signView,
      subHeader: dev ? MSG.devPackageApproved : MSG.releasePackageApproved,
    };
  if (flow === 'approve')
    return {
      path: paths.packages.approveView,
      subHeader: dev ? MSG.approveDevPackageTitle : MSG.approveReleasePackageTitle,
    };
  if (flow === 'approve-delivery')
    return { path: paths.packages.approveView, subHeader: MSG.approveDeliveryPackageTitle };
  // a rejection in approval (or of the signature) is a rejection too (spec §4.4 'REJECTED'),
  // whatever the stage: it opens the rejected page, never 'PACKAGE GENERATED' over "no file was generated"
  if (pkg.status === 'REJECTED')
    return { path: paths.packages.rejectedView, subHeader: MSG.packageRejectedTitle };
  const shown = listStatus(pkg);
  switch (shown) {
    case 'DEVELOPMENT':
      return { path: paths.packages.devView, subHeader: MSG.packageGenerated };
    case 'REJECTED':
      return { path: paths.packages.rejectedView, subHeader: MSG.packageRejectedTitle };
    case 'PENDING':
      return { path: paths.packages.approvalPendingView, subHeader: MSG.packageApprovalPending };
    case 'NOT_STARTED':
    case 'APPROVED':
      return { path: paths.packages.releaseView, subHeader: MSG.packageGenerated };
    default:
      return assertNever(shown, 'list status');
  }
}

/**
 * the page a deep link (a mail's link, a row of the home page's "Waiting for you") opens for
 * this user: the page a click in the list where the package waits for them opens (their approval, their
 * delivery approval, their signature, as the server said), else the page a click in the package list's
 * tab of the package opens (Delivery once its delivery started, else its stage).
 */
export function openTarget(
  pkg: Pick<Package, 'type' | 'resourceStage' | 'deliveryApprovers'> & Partial<Pick<Package, 'status'>>,
  waitingFor: WaitingFor | null,
): RowTarget & { flow: FlowPurpose } {
  const flow: FlowPurpose =
    waitingFor === 'APPROVE'
      ? 'approve'
      : waitingFor === 'APPROVE_DELIVERY'
        ? 'approve-delivery'
        : waitingFor === 'SIGN'
          ? 'sign'
          : pkg.deliveryApprovers.length > 0
            ? 'delivery'
            : pkg.resourceStage === 'RELEASE'
              ? 'release'
              : 'dev';
  return { ...rowClickTarget(pkg, flow), flow };
}

/**
 * the tab an approval or signing list opens on: coming back to this list (the session's flow,
 * and the current package for approve and sign), the tab the user was on while it still has work; otherwise the first
 * tab with work (`counts`, known once the lists answered); with no work anywhere, the tab the user came
 * from, else Development.
 */
export function firstTabWithWork(
  kind: ListKind,
  flow: FlowPurpose,
  current: Pick<Package, 'type'> | null,
  counts: Partial<Record<ListTab, number>>,
): ListTab {
  const back =
    (kind === 'approve' && (flow === 'approve' || flow === 'approve-delivery')) ||
    (kind === 'sign' && flow === 'sign');
  const kept = back ? initialTab(kind, flow, current) : null;
  if (kept && (counts[kept] ?? 0) > 0) return kept;
  return LIST_TABS[kind].find((t) => (counts[t] ?? 0) > 0) ?? kept ?? 'DEV';
}

/** Where Cancel on a detail page returns: the list of the flow. */
export function listPathOf(flow: FlowPurpose): string {
  if (flow === 'approve' || flow === 'approve-delivery') return paths.packages.approve;
  if (flow === 'sign') return paths.packages.sign;
  return paths.packages.list;
}

/** The detail page of the current flow (Back on the header view). */
export function detailsPathOf(
  pkg: Pick<Package, 'type' | 'deliveryApprovers'> & Partial<Pick<Package, 'status'>>,
  flow: FlowPurpose,
): string {
  return rowClickTarget(pkg, flow).path;
}

/** Spec §2.9: the header view's main button per flow; null when the view is read-only. */
export type MainAction = 'approve' | 'approve-delivery' | 'sign' | 'deliver';

export function mainAction(flow: FlowPurpose, canDeliverIt: boolean): MainAction | null {
  if (flow === 'approve' || flow === 'approve-delivery' || flow === 'sign') return flow;
  if (flow === 'delivery' && canDeliverIt) return 'deliver';
  return null;
}

/** The label of that button: Approve, Sign or Continue. */
export function mainActionLabel(action: MainAction): string {
  return action === 'sign' ? MSG.sign : action === 'deliver' ? MSG.continue : MSG.approve;
}

/** Spec §4.6: each decision flow rejects through its own call; the delivery flow has no Reject. */
export type RejectKind = 'approval' | 'delivery' | 'signing';

export function rejectKind(flow: FlowPurpose): RejectKind | null {
  if (flow === 'approve') return 'approval';
  if (flow === 'approve-delivery') return 'delivery';
  if (flow === 'sign') return 'signing';
  return null;
}

/**
 * DESIGN §2: a release engineer (re-)delivers release packages that are approved, signed or delivery-rejected;
 * never an unsigned one, which devices refuse (decision 193): the server answers 409, so it is not offered.
 */
export function canDeliver(
  pkg: Pick<Package, 'resourceStage' | 'status' | 'type' | 'signed'>,
  role: Role | undefined,
): boolean {
  return (
    role === ACTOR_ROLE.releaseEngineer &&
    pkg.resourceStage === 'RELEASE' &&
    isDeliverableType(pkg) &&
    isDeliverable(pkg.status)
  );
}

/** Whether the XML package exists and can be downloaded (the lifecycle's generated statuses). */
export function isGenerated(pkg: Pick<Package, 'status'>): boolean {
  return isGeneratedStatus(pkg.status);
}

/**
 * Spec §2.8: the download page's five titles: a delivered package (delivery flow) is a RELEASE PACKAGE
 * DELIVERY; otherwise the package type says development or release, signed or not.
 */
export function downloadTitle(flow: FlowPurpose, type: PackageType): string {
  if (flow === 'approve-delivery') return MSG.releasePackageDelivery;
  const dev = type.startsWith('DEV_');
  if (isSignedType(type))
    return dev ? MSG.generatedSignedDevPackageTitle : MSG.generatedSignedReleasePackageTitle;
  return dev ? MSG.generatedDevPackageTitle : MSG.generatedReleasePackageTitle;
}

/** Server states in words: shared with the admin lists (features do not import each other). */
export { STATUS_LABELS } from '@/components/ui/status-badge';

/** Spec §2.5/§2.7: the creation title of a stage. */
export function creationTitle(stage: Package['resourceStage']): string {
  return stage === 'RELEASE' ? MSG.generateReleasePackageTitle : MSG.generateDevPackageTitle;
}
