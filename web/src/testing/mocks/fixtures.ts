import type { Dcc } from '@shared/api/contracts/dcc';
import { type Package, resourceFileOf, type UserRef } from '@shared/api/contracts/packages';
import type { Resource } from '@shared/api/contracts/resources';
import type { PublicUser } from '@shared/api/contracts/user';

/**
 * Fixed sample data (spec §7 mock mode). The same fixtures answer the component tests and
 * `npm run dev:mock`. Every user's password is MOCK_PASSWORD.
 */
export const MOCK_PASSWORD = 'Local-Dev-1234';

export const USERS: readonly PublicUser[] = [
  {
    id: 'u-dev',
    name: 'Dana Dev',
    email: 'design-engineer-dev@example.com',
    userRole: 'DESIGN_ENGINEER_DEV',
  },
  {
    id: 'u-test',
    name: 'Tess Tester',
    email: 'design-engineer-test@example.com',
    userRole: 'DESIGN_ENGINEER_TEST',
  },
  {
    id: 'u-rel',
    name: 'Riley Reliability',
    email: 'reliability-engineer@example.com',
    userRole: 'RELIABILITY_ENGINEER',
  },
  {
    id: 'u-sw',
    name: 'Sam Release',
    email: 'sw-fw-release-engineer@example.com',
    userRole: 'SW_FW_RELEASE_ENGINEER',
  },
  { id: 'u-lead', name: 'Terry Lead', email: 'technical-leader@example.com', userRole: 'TECHNICAL_LEADER' },
  { id: 'u-admin', name: 'Ada Admin', email: 'admin@example.com', userRole: 'ADMIN' },
];

/** Issue 12: a registered account whose role waits for an admin (shown on the admin users screen). */
export const PENDING_USER: PublicUser = {
  id: 'u-pending',
  name: 'Pat Pending',
  email: 'pat.pending@example.org',
  userRole: 'RELIABILITY_ENGINEER',
  roleStatus: 'REQUESTED',
  requestedRole: 'RELIABILITY_ENGINEER',
  emailConfirmed: true,
};

export const userById = (id: string): PublicUser => {
  const user = USERS.find((u) => u.id === id);
  if (!user) throw new Error(`no fixture user ${id}`);
  return user;
};

const by = (id: string) => ({ id, name: userById(id).name });

function resource(
  id: string,
  name: string,
  type: Resource['resourceType'],
  stage: Resource['resourceStage'],
  uploadTime: string,
  uploader: string,
  model?: { modelName: string; modelVersion: string },
): Resource {
  return {
    id,
    name,
    resourceType: type,
    resourceStage: stage,
    uploadTime,
    uploadedBy: by(uploader),
    fileName: type === 'PATCH' ? `${name}.bin` : `${name}.tflite`,
    sizeBytes: 180_000 + id.length * 1_000,
    sha256: 'a3f1c9e0b7d24c6e8f0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6a',
    ...model,
  };
}

export const RESOURCES: readonly Resource[] = [
  resource('r-p1', 'infusion-pump-fw-3.2.1', 'PATCH', 'DEV', '2024-03-04 09:12:44', 'u-dev'),
  resource('r-p2', 'infusion-pump-fw-3.2.2', 'PATCH', 'DEV', '2024-03-11 14:03:10', 'u-dev'),
  resource('r-p3', 'ventilator-ctrl-1.8.0', 'PATCH', 'DEV', '2024-02-27 08:45:00', 'u-test'),
  resource('r-p4', 'Glucose-Monitor-BLE-2.0', 'PATCH', 'DEV', '2024-01-19 16:20:31', 'u-test'),
  resource('r-p5', 'ecg-holter-0.9.7', 'PATCH', 'DEV', '2024-04-02 11:00:05', 'u-dev'),
  resource('r-p6', 'defib-selftest-5.1.0', 'PATCH', 'DEV', '2024-04-15 10:30:59', 'u-dev'),
  resource('r-p7', 'pulse-oximeter-4.4.4', 'PATCH', 'DEV', '2024-05-06 07:58:12', 'u-test'),
  resource('r-p8', 'infusion-pump-fw-3.1.0', 'PATCH', 'RELEASE', '2023-11-21 13:14:15', 'u-dev'),
  resource('r-p9', 'ventilator-ctrl-1.7.2', 'PATCH', 'RELEASE', '2023-12-01 09:00:00', 'u-test'),
  resource('r-m1', 'arrhythmia-detector', 'MODEL', 'DEV', '2024-03-20 12:00:00', 'u-dev', {
    modelName: 'ArrhythmiaNet',
    modelVersion: '2.3',
  }),
  resource('r-m2', 'sleep-apnea-classifier', 'MODEL', 'DEV', '2024-04-08 15:45:30', 'u-test', {
    modelName: 'ApneaNet',
    modelVersion: '1.0',
  }),
  resource('r-m3', 'arrhythmia-detector-rc', 'MODEL', 'RELEASE', '2024-02-01 08:30:00', 'u-dev', {
    modelName: 'ArrhythmiaNet',
    modelVersion: '2.2',
  }),
];

/** A fixture user as a package names them (initiator, approver, signer). */
export const ref = (id: string): UserRef => {
  const { name, email, userRole } = userById(id);
  return { id, name, email, userRole };
};

/** A model's metadata file as a package pins it for review (decision 190): a stand-in size and SHA-256. */
export const metadataPinOf = (res: Resource) => ({
  sizeBytes: 200 + res.id.length,
  sha256: '5d41402abc4b2a76b9719d911017c592ae2f8b5c3c4d5e6f708192a3b4c5d6e7',
});

/** A fixture package made from resource `res` by its uploader; `extra` overrides any field. */
export function pkg(
  id: string,
  name: string,
  type: Package['type'],
  status: Package['status'],
  res: Resource,
  note: string,
  extra: Partial<Package> = {},
): Package {
  return {
    id,
    name,
    type,
    status,
    resourceId: res.id,
    resourceName: `${res.name}.zip`,
    resourceType: res.resourceType,
    resourceStage: res.resourceStage,
    resourceFile: resourceFileOf(res, res.resourceType === 'MODEL' ? metadataPinOf(res) : undefined),
    initiator: ref(res.uploadedBy.id),
    uploadTime: res.uploadTime,
    note,
    signed: type.endsWith('_SIGNED'),
    approvers: [],
    deliveryApprovers: [],
    createdAt: `${res.uploadTime.replace(' ', 'T')}Z`,
    updatedAt: `${res.uploadTime.replace(' ', 'T')}Z`,
    ...extra,
  };
}

const resourceById = (id: string) => RESOURCES.find((r) => r.id === id)!;

export const PACKAGES: readonly Package[] = [
  pkg(
    'p-1',
    'IP-3.2.1 nightly',
    'DEV_UNSIGNED',
    'DRAFT',
    resourceById('r-p1'),
    'Nightly build for bench tests',
  ),
  pkg(
    'p-2',
    'IP-3.2.2 field trial',
    'DEV_SIGNED',
    'PENDING_APPROVAL',
    resourceById('r-p2'),
    'Field trial, ward 4',
  ),
  pkg(
    'p-3',
    'VC-1.7.2 release',
    'RELEASE_SIGNED',
    'SIGNED',
    resourceById('r-p9'),
    'Release for CE batch 2023-12',
  ),
  pkg('p-4', 'ArrhythmiaNet 2.2', 'RELEASE_UNSIGNED', 'APPROVED', resourceById('r-m3'), 'Model refresh'),
];

export const DCCS: readonly Dcc[] = [
  {
    id: 'd-1',
    deviceId: 'IP-4000',
    telemetryType: 'TelA',
    messageLimit: 256,
    deviceLimit: 4096,
    createdAt: '2024-03-01T10:00:00Z',
    createdBy: by('u-dev'),
  },
  {
    id: 'd-2',
    deviceId: 'VENT-220',
    telemetryType: 'TelB',
    messageLimit: 64,
    deviceLimit: 1024,
    createdAt: '2024-03-02T10:00:00Z',
    createdBy: by('u-test'),
  },
  {
    id: 'd-3',
    deviceId: 'GLU-BLE-2',
    telemetryType: 'BLE',
    messageLimit: 16,
    deviceLimit: 16,
    createdAt: '2024-03-03T10:00:00Z',
    createdBy: by('u-dev'),
  },
];
