import type { BucketName, TableName } from '../../shared/api/routes';

/**
 * Tables and buckets, described once. The CDK data construct and the local stack both create them from
 * here, so the emulators hold exactly the shape AWS has.
 */
export interface KeyDef {
  name: string;
  type: 'S' | 'N';
}
export interface IndexDef {
  name: string;
  partitionKey: KeyDef;
  sortKey?: KeyDef;
  /**
   * the attributes an INCLUDE projection copies besides the keys; absent: ALL. A compact index reads a
   * fraction of the items' bytes (read units are billed by the bytes read), e.g. byKindCompact below.
   */
  include?: readonly string[];
}
export interface TableDef {
  partitionKey: KeyDef;
  sortKey?: KeyDef;
  indexes: IndexDef[];
  /** attribute holding an epoch-seconds expiry, if items expire */
  ttlAttribute?: string;
  /** a DynamoDB stream of new item images, read by a stream worker (shared/api/workers.ts) */
  stream?: 'NEW_IMAGE';
}

/** What the packages' compact list index projects (decision 210): the lists' search and sort fields. */
export const PACKAGE_COMPACT_FIELDS = [
  'id',
  'name',
  'resourceName',
  'note',
  'resourceType',
  'resourceStage',
  'signed',
  'deliveryStartedAt',
] as const;

/**
 * What the packages' list index `byKindUpdated` projects (decision 260): the compact fields, the status the
 * admin table's State column sorts by, and the creation time the lists are ordered by.
 */
export const PACKAGE_LIST_FIELDS = [...PACKAGE_COMPACT_FIELDS, 'status', 'createdAt'] as const;

const S = (name: string): KeyDef => ({ name, type: 'S' });
const N = (name: string): KeyDef => ({ name, type: 'N' });

export const TABLES: Record<TableName, TableDef> = {
  /**
   * Users, email claims (one item per email ever registered, kept after deletion) and login throttles.
   * pk: `USER#<id>` | `EMAIL#<email>` | `THROTTLE#<key>`
   */
  users: {
    partitionKey: S('pk'),
    indexes: [
      { name: 'byKind', partitionKey: S('kind'), sortKey: S('createdAt') },
      { name: 'byRole', partitionKey: S('userRole'), sortKey: S('createdAt') },
    ],
    ttlAttribute: 'expiresAt',
  },
  /** Resources and name claims. pk: `RES#<id>` | `NAME#<name>` */
  resources: {
    partitionKey: S('pk'),
    indexes: [
      { name: 'byTypeStage', partitionKey: S('typeStage'), sortKey: S('uploadTime') },
      { name: 'byKind', partitionKey: S('kind'), sortKey: S('uploadTime') },
    ],
    // pending presigned uploads (UPLOAD#…) expire; resources and name claims carry no expiry
    ttlAttribute: 'expiresAtEpoch',
  },
  /**
   * Packages (pk `PKG#<id>`, sk `PKG`), name claims (pk `NAME#<name>`, sk `NAME`) and per-user tasks
   * (pk `PKG#<id>`, sk `TASK#<kind>#<userId>`) indexed by assignee for the approval and signing lists.
   */
  packages: {
    partitionKey: S('pk'),
    sortKey: S('sk'),
    indexes: [
      { name: 'byListStage', partitionKey: S('listStage'), sortKey: S('createdAt') },
      { name: 'byAssignee', partitionKey: S('assignee'), sortKey: S('queue') },
      { name: 'byKind', partitionKey: S('kind'), sortKey: S('createdAt') },
      { name: 'byResource', partitionKey: S('resourceId'), sortKey: S('createdAt') },
      { name: 'byDcc', partitionKey: S('dccId'), sortKey: S('createdAt') },
      { name: 'byDelivery', partitionKey: S('deliveryList'), sortKey: S('deliveryStartedAt') },
      // the compact list index (decision 210): the fields the package lists search and sort by, ~0.3 KB
      // a package instead of ~8.6 KB; the lists' search, sort and total are computed over it
      {
        name: 'byKindCompact',
        partitionKey: S('kind'),
        sortKey: S('createdAt'),
        include: PACKAGE_COMPACT_FIELDS,
      },
      // the list index since decision 260: the compact fields and the status, by the time of the package's
      // last write, so one small Query per view finds every entry that changed (a status, a delivery start)
      {
        name: 'byKindUpdated',
        partitionKey: S('kind'),
        sortKey: S('updatedAt'),
        include: PACKAGE_LIST_FIELDS,
      },
      // sparse: only approved packages with a DCC copy carry `approvedFor` (`<resourceType>#<deviceId>`) and
      // `approvedAt`; "the last approved package for this device" is one Query (decision 246)
      {
        name: 'byApprovedDevice',
        partitionKey: S('approvedFor'),
        sortKey: S('approvedAt'),
        include: ['id', 'status'],
      },
    ],
  },
  /** DCCs. pk `DCC#<id>` */
  dcc: {
    partitionKey: S('pk'),
    indexes: [{ name: 'byKind', partitionKey: S('kind'), sortKey: S('createdAt') }],
  },
  /** Append-only audit events: pk `<subject>` (e.g. `PKG#<id>`, `USER#<id>`), sk sequence number. */
  audit: {
    partitionKey: S('pk'),
    sortKey: N('seq'),
    indexes: [
      { name: 'byKind', partitionKey: S('kind'), sortKey: S('at') },
      // the audit screen's "who" filter (decision 346): every event of one actor by time; heads carry no actorId
      { name: 'byActor', partitionKey: S('actorId'), sortKey: S('at') },
    ],
    // every event is copied to the Object Lock audit bucket by the auditCopy worker (decision 097)
    stream: 'NEW_IMAGE',
  },
  /**
   * Workflow mails committed with the state change that causes them (decision 095): pk `MAIL#<event id>`,
   * one item per recipient per event; the mailOutbox worker sends them from the table's stream.
   */
  outbox: {
    partitionKey: S('pk'),
    indexes: [],
    stream: 'NEW_IMAGE',
    // sent and failed mails expire a while after they settle; pending ones carry no expiry
    ttlAttribute: 'expiresAtEpoch',
  },
};

export const BUCKETS: Record<BucketName, { versioned: boolean; objectLock: boolean }> = {
  resources: { versioned: false, objectLock: false },
  artefacts: { versioned: true, objectLock: false },
  audit: { versioned: true, objectLock: true },
};
