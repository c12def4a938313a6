import type { Dcc } from '@shared/api/contracts/dcc';
import { type Package, resourceFileOf, type UserRef } from '@shared/api/contracts/packages';
import type { Resource } from '@shared/api/contracts/resources';
import type { PublicUser } from '@shared/api/contracts/user';
import type { Role } from '@shared/domain/roles';

/**
 * Fixed sample data (spec §7 mock mode), one row per record: the same fixtures answer `npm run dev:mock`
 * and are seeded into the real services of the component tests (testing/backend/seed.ts). Every user's
 * password is MOCK_PASSWORD.
 */
export const MOCK_PASSWORD = 'Local-Dev-1234';

type UserRow = readonly [id: string, name: string, email: string, userRole: Role];
const USER_ROWS = [
  ['u-dev', 'Dana Dev', 'design-engineer-dev@example.com', 'DESIGN_ENGINEER_DEV'],
  ['u-test', 'Tess Tester', 'design-engineer-test@example.com', 'DESIGN_ENGINEER_TEST'],
  ['u-rel', 'Riley Reliability', 'reliability-engineer@example.com', 'RELIABILITY_ENGINEER'],
  ['u-sw', 'Sam Release', 'sw-fw-release-engineer@example.com', 'SW_FW_RELEASE_ENGINEER'],
  ['u-lead', 'Terry Lead', 'technical-leader@example.com', 'TECHNICAL_LEADER'],
  ['u-admin', 'Ada Admin', 'admin@example.com', 'ADMIN'],
] as const satisfies readonly UserRow[];
/** The id of a sample user: the compiler refuses a row naming anyone else. */
export type SampleUserId = (typeof USER_ROWS)[number][0];

const user = ([id, name, email, userRole]: UserRow) => ({ id, name, email, userRole });
export const USERS: readonly PublicUser[] = USER_ROWS.map(user);
/** a registered account whose role waits for an admin (shown on the admin users screen). */
export const PENDING_USER: PublicUser = {
  ...user(['u-pending', 'Pat Pending', 'pat.pending@example.org', 'RELIABILITY_ENGINEER']),
  roleStatus: 'REQUESTED',
  requestedRole: 'RELIABILITY_ENGINEER',
  emailConfirmed: true,
};

export const userById = (id: SampleUserId): PublicUser => USERS.find((u) => u.id === id)!;
const by = (id: SampleUserId) => ({ id, name: userById(id).name });
/** A sample user as a package names them (initiator, approver, signer). */
export const ref = (id: SampleUserId): UserRef => {
  const { name, email, userRole } = userById(id);
  return { id, name, email, userRole };
};

type Type = Resource['resourceType'];
type Stage = Resource['resourceStage'];
type ResourceRow = readonly [string, string, Type, Stage, string, SampleUserId, string?, string?];
// biome-ignore format: a table, one resource a row: id, name, type, stage, upload time, uploader (models: name, version)
const RESOURCE_ROWS = [
  ['r-p1', 'infusion-pump-fw-3.2.1', 'PATCH', 'DEV', '2024-03-04 09:12:44', 'u-dev'],
  ['r-p2', 'infusion-pump-fw-3.2.2', 'PATCH', 'DEV', '2024-03-11 14:03:10', 'u-dev'],
  ['r-p3', 'ventilator-ctrl-1.8.0', 'PATCH', 'DEV', '2024-02-27 08:45:00', 'u-test'],
  ['r-p4', 'Glucose-Monitor-BLE-2.0', 'PATCH', 'DEV', '2024-01-19 16:20:31', 'u-test'],
  ['r-p5', 'ecg-holter-0.9.7', 'PATCH', 'DEV', '2024-04-02 11:00:05', 'u-dev'],
  ['r-p6', 'defib-selftest-5.1.0', 'PATCH', 'DEV', '2024-04-15 10:30:59', 'u-dev'],
  ['r-p7', 'pulse-oximeter-4.4.4', 'PATCH', 'DEV', '2024-05-06 07:58:12', 'u-test'],
  ['r-p8', 'infusion-pump-fw-3.1.0', 'PATCH', 'RELEASE', '2023-11-21 13:14:15', 'u-dev'],
  ['r-p9', 'ventilator-ctrl-1.7.2', 'PATCH', 'RELEASE', '2023-12-01 09:00:00', 'u-test'],
  ['r-m1', 'arrhythmia-detector', 'MODEL', 'DEV', '2024-03-20 12:00:00', 'u-dev', 'ArrhythmiaNet', '2.3'],
  ['r-m2', 'sleep-apnea-classifier', 'MODEL', 'DEV', '2024-04-08 15:45:30', 'u-test', 'ApneaNet', '1.0'],
  ['r-m3', 'arrhythmia-detector-rc', 'MODEL', 'RELEASE', '2024-02-01 08:30:00', 'u-dev', 'ArrhythmiaNet', '2.2'],
] as const satisfies readonly ResourceRow[];
export type SampleResourceId = (typeof RESOURCE_ROWS)[number][0];

export const RESOURCES: readonly Resource[] = RESOURCE_ROWS.map(
  ([id, name, resourceType, resourceStage, uploadTime, uploader, modelName, modelVersion]: ResourceRow) => ({
    id,
    name,
    resourceType,
    resourceStage,
    uploadTime,
    uploadedBy: by(uploader),
    fileName: resourceType === 'PATCH' ? `${name}.bin` : `${name}.tflite`,
    sizeBytes: 180_000 + id.length * 1_000,
    sha256: 'a3f1c9e0b7d24c6e8f0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6a',
    ...(modelName ? { modelName, modelVersion } : {}),
  }),
);
export const resourceById = (id: SampleResourceId): Resource => RESOURCES.find((r) => r.id === id)!;

/** A model's metadata file as a package pins it for review (decision 190): a stand-in size and SHA-256. */
export const metadataPinOf = (res: Resource) => ({
  sizeBytes: 200 + res.id.length,
  sha256: '5d41402abc4b2a76b9719d911017c592ae2f8b5c3c4d5e6f708192a3b4c5d6e7',
});

/** id, name, type, state, resource and note of a sample package */
export type PackageHead = readonly [string, string, Package['type'], Status, SampleResourceId, string];
type Status = Package['status'];

/** The one builder of a sample package: made from resource `resourceId` by its uploader; `o` overrides any field. */
export function samplePackage(
  [id, name, type, status, resourceId, note]: PackageHead,
  o: Partial<Package> = {},
): Package {
  const res = resourceById(resourceId);
  const at = `${res.uploadTime.replace(' ', 'T')}Z`;
  return {
    id,
    name,
    type,
    status,
    resourceId,
    resourceName: `${res.name}.zip`,
    resourceType: res.resourceType,
    resourceStage: res.resourceStage,
    resourceFile: resourceFileOf(res, res.resourceType === 'MODEL' ? metadataPinOf(res) : undefined),
    initiator: ref(res.uploadedBy.id as SampleUserId),
    uploadTime: res.uploadTime,
    note,
    signed: type.endsWith('_SIGNED'),
    approvers: [],
    deliveryApprovers: [],
    createdAt: at,
    updatedAt: at,
    ...o,
  };
}

// biome-ignore format: a table, one package a row: id, name, type, state, resource, note
export const PACKAGES: readonly Package[] = ([
  ['p-1', 'IP-3.2.1 nightly', 'DEV_UNSIGNED', 'DRAFT', 'r-p1', 'Nightly build for bench tests'],
  ['p-2', 'IP-3.2.2 field trial', 'DEV_SIGNED', 'PENDING_APPROVAL', 'r-p2', 'Field trial, ward 4'],
  ['p-3', 'VC-1.7.2 release', 'RELEASE_SIGNED', 'SIGNED', 'r-p9', 'Release for CE batch 2023-12'],
  ['p-4', 'ArrhythmiaNet 2.2', 'RELEASE_UNSIGNED', 'APPROVED', 'r-m3', 'Model refresh'],
] as const).map((row) => samplePackage(row));

// biome-ignore format: a table, one DCC a row: id, device, telemetry type, message limit, device limit, creator
export const DCCS: readonly Dcc[] = ([
  ['d-1', 'IP-4000', 'TelA', 256, 4096, 'u-dev'],
  ['d-2', 'VENT-220', 'TelB', 64, 1024, 'u-test'],
  ['d-3', 'GLU-BLE-2', 'BLE', 16, 16, 'u-dev'],
] as const).map(([id, deviceId, telemetryType, messageLimit, deviceLimit, creator], i) => ({
  id, deviceId, telemetryType, messageLimit, deviceLimit,
  createdAt: `2024-03-0${i + 1}T10:00:00Z`, createdBy: by(creator),
}));
