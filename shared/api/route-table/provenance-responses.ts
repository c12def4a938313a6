import * as z from 'zod';
import { answer, jsonText } from '../contracts/responses';
import type { PROVENANCE_ROUTES } from './provenance';

/** Answers of the provenance rows (issue 27). */
export const PROVENANCE_RESPONSES = {
  attachProvenance: answer({ resource: jsonText('the resource with its provenance and SBOM (Resource)') }),
  packageSbom: z.string().meta({
    description:
      'the SBOM file, byte for byte as stored (CycloneDX or SPDX JSON); its SHA-256 is the package resourceFile.sbom.sha256',
  }),
} as const satisfies { [Id in (typeof PROVENANCE_ROUTES)[number]['id']]: z.ZodType };
