import type { PackageType } from '../model/package';
import type { EntryField, EnumOption, Header } from './header-schema';

/**
 * The server's header template: the spec's sample header (spec §3, DESIGN §3), layout version 1.
 * `docs/package-format.md` documents the bytes this produces; change both together, and never change the
 * meaning of an existing byte: devices in the field read it.
 */

/** "FWPK" in ASCII: the first four bytes of every header (0x4B505746 read little-endian). */
export const START_OF_MESSAGE = 0x4b505746;

/** Value of the Type byte per package type: bit 0 = signed, bit 1 = release. */
export const PACKAGE_TYPE_CODES: Record<PackageType, number> = {
  DEV_UNSIGNED: 0,
  DEV_SIGNED: 1,
  RELEASE_UNSIGNED: 2,
  RELEASE_SIGNED: 3,
};

/** Operators of criteria items (spec §3), as stored in their byte. */
export const OPERATOR_OPTIONS: EnumOption[] = [
  { label: 'EQUAL', value: 0 },
  { label: 'NOT_EQUAL', value: 1 },
  { label: 'LESS', value: 2 },
  { label: 'MORE', value: 3 },
  { label: 'LESS_AND_EQUAL', value: 4 },
  { label: 'MORE_AND_EQUAL', value: 5 },
];

/** What the device does with the package. */
export const UPDATE_OPERATION_OPTIONS: EnumOption[] = [
  { label: 'INSTALL', value: 0 },
  { label: 'UPDATE', value: 1 },
  { label: 'ROLLBACK', value: 2 },
];

/** Patch Id: up to 64 patches, each one bit of a 64-bit mask (spec §9); the value is the bit number. */
export const PATCH_ID_OPTIONS: EnumOption[] = Array.from({ length: 64 }, (_, bit) => ({
  label: `Patch ${bit + 1}`,
  value: bit,
}));

/** Most entries in each criteria list: keeps the header under 700 bytes. */
export const CRITERIA_MAX_ENTRIES = 16;

/** Bytes of Reserved Space: pads the fixed part of the header to 64 bytes. */
export const RESERVED_BYTES = 6;

const criteriaTemplate = (): EntryField[] => [
  { name: 'Address', type: 'uint32', value: 0, title: 'Address the device reads' },
  { name: 'Mask', type: 'uint32', value: 0xffffffff, title: 'Bits of the word that are compared' },
  { name: 'Value', type: 'uint32', value: 0, title: 'Value the masked word is compared with' },
  {
    name: 'Operator',
    type: 'enum',
    storage: 'uint8',
    options: OPERATOR_OPTIONS.map((o) => ({ ...o })),
    value: 0,
    title: '(word at Address AND Mask) Operator Value',
  },
];

const criteriaList = (name: string, title: string) => ({
  name,
  title,
  type: 'list' as const,
  template: criteriaTemplate(),
  maxEntries: CRITERIA_MAX_ENTRIES,
  value: [],
});

const computedSize = (
  name: string,
  computed: 'headerSize' | 'patchConfigSize' | 'patchDataSize',
  title: string,
) => ({
  name,
  title,
  type: 'fixed' as const,
  storage: 'uint32' as const,
  width: 4,
  value: 0,
  computed,
});

/** A fresh copy of the template with default values; computed fields still need `computeFields`. */
export function headerTemplate(): Header {
  return {
    fields: [
      {
        name: 'Start Of Message',
        title: 'Magic constant: the ASCII bytes "FWPK"',
        type: 'fixed',
        storage: 'uint32',
        width: 4,
        value: START_OF_MESSAGE,
      },
      { name: 'Package Id', title: 'Package number the device reports back', type: 'uint32', value: 0 },
      {
        name: 'Device Model Id',
        title: 'The device this package is for',
        type: 'group',
        template: [
          { name: 'Model Id', type: 'uint16', value: 0 },
          { name: 'Sub Model Id', type: 'uint16', value: 0 },
          { name: 'Serial Number', type: 'uint32', value: 0 },
        ],
        value: { 'Model Id': 0, 'Sub Model Id': 0, 'Serial Number': 0 },
      },
      {
        name: 'Type',
        title:
          'Package type, set by the server: 0 DEV_UNSIGNED, 1 DEV_SIGNED, 2 RELEASE_UNSIGNED, 3 RELEASE_SIGNED',
        type: 'fixed',
        storage: 'uint8',
        width: 1,
        value: 0,
        computed: 'packageType',
      },
      {
        name: 'Patch Id',
        title: 'Which of the 64 patches this is; stored as a 64-bit mask with that one bit set',
        type: 'enum',
        storage: 'mask64',
        options: PATCH_ID_OPTIONS.map((o) => ({ ...o })),
        value: 0,
      },
      {
        name: 'Update Operation Type',
        title: 'What the device does with the package',
        type: 'enum',
        storage: 'uint8',
        options: UPDATE_OPERATION_OPTIONS.map((o) => ({ ...o })),
        value: 0,
      },
      {
        name: 'Header Destination',
        title: 'Flash address the header is written to',
        type: 'uint32',
        value: 0,
      },
      computedSize('Header Size', 'headerSize', 'Bytes of this header, CRC included; set by the server'),
      { name: 'Installer Destination', title: 'Flash address of the installer', type: 'uint32', value: 0 },
      {
        name: 'Installer Size',
        title: 'Bytes of the installer already on the device',
        type: 'uint32',
        value: 0,
      },
      {
        name: 'Patch Config Destination',
        title: 'Flash address of the patch configuration',
        type: 'uint32',
        value: 0,
      },
      computedSize(
        'Patch Config Size',
        'patchConfigSize',
        'Bytes of the configuration (model metadata); set by the server',
      ),
      { name: 'Patch Data Destination', title: 'Flash address of the patch data', type: 'uint32', value: 0 },
      computedSize('Patch Data Size', 'patchDataSize', 'Bytes of the resource file; set by the server'),
      {
        name: 'Reserved Space',
        title: 'Zero bytes kept for later fields',
        type: 'fixed',
        storage: 'bytes',
        width: RESERVED_BYTES,
        value: '00'.repeat(RESERVED_BYTES),
      },
      criteriaList('Patch Criteria Items', 'Conditions the device checks before accepting the patch'),
      criteriaList(
        'Install Start Criteria Items',
        'Conditions the device checks before it starts installing',
      ),
      criteriaList('Flash Update Criteria Items', 'Conditions the device checks before writing flash'),
      {
        name: 'Header CRC',
        title: 'zlib CRC-32 of every header byte before this field; set by the server',
        type: 'fixed',
        storage: 'uint32',
        width: 4,
        value: 0,
        computed: 'headerCrc',
      },
    ],
  };
}
