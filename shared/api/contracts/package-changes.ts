import * as z from 'zod';
import type { PackageChanges } from '../../domain/package-changes';
import { PACKAGE_STATUSES, PACKAGE_TYPES } from './packages';
import { RESOURCE_TYPES } from './resources';

/**
 * The answer of GET /packages/{id}/changes as the SPA parses it at its edge (decision
 * 238): checked against its interface below, so neither can gain or lose a field alone.
 */
const cellsSchema = z.object({ decimal: z.string(), hex: z.string(), label: z.string().optional() });

const headerFieldChangeSchema = z.object({
  path: z.string(),
  type: z.string(),
  computed: z.boolean().optional(),
  old: cellsSchema.nullable(),
  new: cellsSchema.nullable(),
});

const entryCellsSchema = z.object({
  index: z.number(),
  values: z.array(z.object({ name: z.string(), cells: cellsSchema })),
});

const fileSideSchema = z
  .object({
    fileName: z.string().optional(),
    sizeBytes: z.number().optional(),
    sha256: z.string().optional(),
  })
  .nullable();

export const packageChangesSchema = z.object({
  packageId: z.string(),
  resourceType: z.enum(RESOURCE_TYPES),
  deviceId: z.string().nullable(),
  previous: z
    .object({
      id: z.string(),
      name: z.string(),
      status: z.enum(PACKAGE_STATUSES),
      type: z.enum(PACKAGE_TYPES),
      resourceName: z.string(),
      approvedAt: z.string().optional(),
    })
    .nullable(),
  header: z.array(headerFieldChangeSchema),
  lists: z.array(
    z.object({
      field: z.string(),
      oldCount: z.number(),
      newCount: z.number(),
      added: z.array(entryCellsSchema),
      removed: z.array(entryCellsSchema),
      changed: z.array(z.object({ index: z.number(), changes: z.array(headerFieldChangeSchema) })),
    }),
  ),
  files: z.array(
    z.object({
      file: z.enum(['payload', 'metadata', 'sbom']),
      old: fileSideSchema,
      new: fileSideSchema,
      sameDigest: z.boolean(),
      sameSize: z.boolean(),
    }),
  ),
  dcc: z.array(
    z.object({
      field: z.enum(['dccId', 'deviceId', 'telemetryType', 'messageLimit', 'deviceLimit']),
      old: z.union([z.string(), z.number()]).nullable(),
      new: z.union([z.string(), z.number()]).nullable(),
    }),
  ),
  build: z
    .array(
      z.object({
        field: z.enum(['repository', 'commit', 'buildId', 'builder', 'sbomFormat', 'sbomComponents']),
        old: z.union([z.string(), z.number()]).nullable(),
        new: z.union([z.string(), z.number()]).nullable(),
      }),
    )
    .optional(),
  headerCompared: z.boolean(),
});

type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <_T extends true>() => undefined;
same<Same<z.output<typeof packageChangesSchema>, PackageChanges>>();
