import type { Signer } from '../../lambdas/ports/signer';
import type { Base } from './bases';
import type { Parts } from './forge';
import type { TestKeyName } from './keys';

/** The shape of a conformance vector as its builders declare it (corpus.ts writes the files and vectors.json). */

export type Verdict = 'accept' | 'refuse';

export const CATEGORIES = [
  'real',
  'payload',
  'header',
  'xml-layout',
  'approvals',
  'signature-and-keys',
  'forgery',
  'development-in-the-field',
  'statement',
  'sbom',
] as const;
export type Category = (typeof CATEGORIES)[number];

/** What a vector's file is: its own bytes, or a file of a real package (by the base's id). */
export type Source = string | Buffer | { base: string };
export type SbomSource = 'CycloneDX' | 'SPDX' | Buffer;

export interface VectorFiles {
  package: Source;
  statement?: Source;
  sbom?: SbomSource;
}

export interface VectorDef {
  id: string;
  category: Category;
  description: string;
  field: Verdict;
  development: Verdict;
  /**
   * for a refusal, the check of `npm run verify` that must be among the failed ones on every device that
   * refuses it: the rule the vector is about (a vector refused for another reason is a broken vector)
   */
  check?: string;
  files: (ctx: BuildContext) => Promise<VectorFiles>;
}

/** What builders work from: the real packages, taken apart, and the test keys. */
export interface BuildContext {
  base(id: string): Base;
  parts(id: string): Parts;
  xml(id: string): string;
  key(name: TestKeyName): Signer;
}

/** A refusal by both devices, by `check`. */
export const refusedBy = (check: string) =>
  ({ field: 'refuse', development: 'refuse', check }) as const satisfies Pick<
    VectorDef,
    'field' | 'development' | 'check'
  >;
/** Accepted by both devices. */
export const acceptedByBoth = { field: 'accept', development: 'accept' } as const;
/** Refused in the field (by `check`), accepted by a device in a development mode. */
export const developmentOnly = (check: string) =>
  ({ field: 'refuse', development: 'accept', check }) as const satisfies Pick<
    VectorDef,
    'field' | 'development' | 'check'
  >;

/** A vector before its category is given (the lists of one category). */
export type Def = Omit<VectorDef, 'category'>;
/** The vectors `defs`, in `category`. */
export const inCategory = (category: Category, defs: readonly Def[]): VectorDef[] =>
  defs.map((d) => ({ ...d, category }));
