import type { PackageSource } from './model/package';

/** The parts of a package (server record or client answer) a "start from" candidate shows. */
export interface PackageSourceInput {
  id: string;
  name: string;
  status: PackageSource['status'];
  type: PackageSource['type'];
  createdAt: string;
  updatedAt: string;
  initiator: { name: string };
  dcc?: { deviceId?: string };
  resourceId?: string;
}

/**
 * A package as a candidate to start a new package from: the service and the sample data use it.
 * With the new package's resource id, it says why it is offered (its own resource, or the same device).
 */
export const packageSourceOf = (p: PackageSourceInput, forResourceId?: string): PackageSource => ({
  id: p.id,
  name: p.name,
  status: p.status,
  type: p.type,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
  initiatorName: p.initiator.name,
  ...(p.dcc?.deviceId ? { deviceId: p.dcc.deviceId } : {}),
  ...(forResourceId !== undefined ? { match: p.resourceId === forResourceId ? 'resource' : 'device' } : {}),
});
