import { BadRequestError } from './errors';
import { SBOM_MAX_BYTES, SBOM_TOP_COMPONENTS, type SbomComponent, type SbomFormat } from './model/provenance';
import { PROVENANCE_ERR } from './provenance-texts';

/**
 * The SBOM check (decision 275): a CycloneDX JSON (1.2–1.6) or SPDX JSON (2.2, 2.3) document,
 * its components named. Pure: the service hashes and stores `text`, the exact bytes checked here.
 */
export interface CheckedSbom {
  /** the stored and hashed text: the file's own text when it came as a string, else JSON without spaces */
  text: string;
  format: SbomFormat;
  specVersion: string;
  componentCount: number;
  topComponents: SbomComponent[];
  /** the document's subject: CycloneDX metadata.component, SPDX the package the document describes */
  subject?: SbomComponent;
}

const CYCLONEDX_VERSIONS = ['1.2', '1.3', '1.4', '1.5', '1.6'];
const SPDX_VERSIONS = ['SPDX-2.2', 'SPDX-2.3'];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const utf8Length = (s: string): number => new TextEncoder().encode(s).length;

export function sbomFileNameOk(fileName: unknown): fileName is string {
  return (
    typeof fileName === 'string' &&
    fileName.trim() === fileName &&
    fileName.length > 5 &&
    fileName.length <= 255 &&
    /\.json$/i.test(fileName) &&
    !/[/\\\0]/.test(fileName)
  );
}

/** Checks and summarises an SBOM given as its JSON text or as the parsed document; 400 naming the field. */
export function checkSbom(content: unknown): CheckedSbom {
  let doc: unknown = content;
  let text: string;
  if (typeof content === 'string') {
    if (utf8Length(content) > SBOM_MAX_BYTES) throw new BadRequestError(PROVENANCE_ERR.sbomTooBig);
    try {
      doc = JSON.parse(content);
    } catch {
      throw new BadRequestError(PROVENANCE_ERR.sbomNotJson);
    }
    text = content;
  } else {
    text = JSON.stringify(content ?? null);
    if (utf8Length(text) > SBOM_MAX_BYTES) throw new BadRequestError(PROVENANCE_ERR.sbomTooBig);
  }
  if (!isObject(doc)) throw new BadRequestError(PROVENANCE_ERR.sbomNotObject);
  if ('bomFormat' in doc) return { text, ...cycloneDx(doc) };
  if ('spdxVersion' in doc) return { text, ...spdx(doc) };
  throw new BadRequestError(PROVENANCE_ERR.sbomUnknownFormat);
}

function cycloneDx(doc: Json): Omit<CheckedSbom, 'text'> {
  if (doc.bomFormat !== 'CycloneDX') throw new BadRequestError(PROVENANCE_ERR.bomFormat);
  const specVersion = doc.specVersion;
  if (typeof specVersion !== 'string' || !CYCLONEDX_VERSIONS.includes(specVersion))
    throw new BadRequestError(PROVENANCE_ERR.cycloneDxVersion);
  const components = namedList(doc.components, 'components');
  const meta = isObject(doc.metadata) ? doc.metadata.component : undefined;
  return {
    format: 'CycloneDX',
    specVersion,
    componentCount: countCycloneDx(components),
    topComponents: components.slice(0, SBOM_TOP_COMPONENTS).map(componentOf),
    ...(isObject(meta) && typeof meta.name === 'string' ? { subject: componentOf(meta) } : {}),
  };
}

/** Every component of a CycloneDX tree: the top-level ones and those nested in them. */
function countCycloneDx(list: readonly Json[]): number {
  let n = 0;
  for (const c of list) {
    n += 1;
    if (Array.isArray(c.components)) n += countCycloneDx(c.components.filter(isObject));
  }
  return n;
}

function spdx(doc: Json): Omit<CheckedSbom, 'text'> {
  const specVersion = doc.spdxVersion;
  if (typeof specVersion !== 'string' || !SPDX_VERSIONS.includes(specVersion))
    throw new BadRequestError(PROVENANCE_ERR.spdxVersion);
  const packages = namedList(doc.packages, 'packages');
  const described = Array.isArray(doc.documentDescribes) ? doc.documentDescribes[0] : undefined;
  const subject = packages.find((p) => typeof described === 'string' && p.SPDXID === described);
  const others = packages.filter((p) => p !== subject);
  return {
    format: 'SPDX',
    specVersion,
    componentCount: others.length,
    topComponents: others.slice(0, SBOM_TOP_COMPONENTS).map(spdxComponentOf),
    ...(subject ? { subject: spdxComponentOf(subject) } : {}),
  };
}

function namedList(list: unknown, field: string): Json[] {
  if (!Array.isArray(list)) throw new BadRequestError(PROVENANCE_ERR.listMissing(field));
  list.forEach((c, i) => {
    if (!isObject(c) || typeof c.name !== 'string' || c.name.trim() === '')
      throw new BadRequestError(PROVENANCE_ERR.componentName(field, i));
  });
  return list as Json[];
}

const text = (v: unknown, max: number): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.slice(0, max) : undefined;

function componentOf(c: Json): SbomComponent {
  const version = text(c.version, 128);
  const purl = text(c.purl, 512);
  return {
    name: String(c.name).slice(0, 256),
    ...(version ? { version } : {}),
    ...(purl ? { purl } : {}),
  };
}

/** SPDX: versionInfo is the version; the purl is a PACKAGE-MANAGER external reference of type purl. */
function spdxComponentOf(p: Json): SbomComponent {
  const refs = Array.isArray(p.externalRefs) ? p.externalRefs.filter(isObject) : [];
  const purlRef = refs.find((r) => r.referenceType === 'purl');
  return componentOf({ name: p.name, version: p.versionInfo, purl: purlRef?.referenceLocator });
}
