import { PKG_READ, UPLOADERS } from './groups';
import { tokenCallable } from './token-use';
import type { Route } from './types';

/**
 * Build provenance and SBOM (issue 27, decisions 275–278): attached once to a resource by its uploader (or a
 * token of theirs), pinned on the packages made from it, read beside the package.
 */
export const PROVENANCE_ROUTES = [
  {
    id: 'attachProvenance',
    method: 'PUT',
    path: '/resources/{id}/provenance',
    access: UPLOADERS,
    uses: tokenCallable({ tables: ['users', 'resources', 'audit'], buckets: { resources: ['write'] } }),
    memoryMb: 512,
    tokenScope: 'resources:upload',
    summary:
      "Attach a resource's build provenance (repository, commit, build id and URL, builder) and/or its SBOM " +
      '(CycloneDX or SPDX JSON), once each, by its uploader; packages created afterwards pin both',
  },
  {
    id: 'packageSbom',
    method: 'GET',
    path: '/packages/{id}/sbom',
    access: 'signedIn',
    uses: { tables: PKG_READ, buckets: { resources: ['read'] } },
    tokenScope: 'packages:draft',
    summary: "The SBOM file pinned on the package (the exact bytes whose SHA-256 the package's sbom records)",
  },
] as const satisfies readonly Route[];
