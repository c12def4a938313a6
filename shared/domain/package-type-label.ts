import { PACKAGE_TYPES, type PackageType } from './model/package';

/**
 * A package type in words: mails and pages name it so, never by its code alone. The code
 * (spec: DEV_UNSIGNED, DEV_SIGNED, RELEASE_UNSIGNED, RELEASE_SIGNED) is what the header and the XML carry;
 * the pages show it beside the words, the mails do not.
 */
export const PACKAGE_TYPE_LABELS: Readonly<Record<PackageType, string>> = {
  DEV_UNSIGNED: 'Development package, unsigned',
  DEV_SIGNED: 'Development package, signed',
  RELEASE_UNSIGNED: 'Release package, unsigned',
  RELEASE_SIGNED: 'Release package, signed',
};

/** The words of a type; an unknown code (never stored) is shown as it is. */
export const packageTypeLabel = (type: string): string =>
  (PACKAGE_TYPES as readonly string[]).includes(type) ? PACKAGE_TYPE_LABELS[type as PackageType] : type;
