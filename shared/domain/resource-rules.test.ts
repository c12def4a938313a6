import { describe, expect, it } from 'vitest';
import { MSG } from '../messages';
import { BadRequestError, NotAcceptableError, PayloadTooLargeError } from './errors';
import {
  checkExtension,
  checkSize,
  checkTflite,
  extensionOf,
  formatUploadTime,
  hasTfliteIdentifier,
  nameClaimKey,
  parseModelMetadata,
  RESOURCE_ERR,
  safeFileName,
  typeStageKey,
} from './resource-rules';

const bytes = (s: string) => new TextEncoder().encode(s);
const tflite = (rest = '') => Uint8Array.from([0x1c, 0, 0, 0, ...bytes(`TFL3${rest}`)]);

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}

describe('extensions', () => {
  it('reads the extension lowercased, from the base name only', () => {
    expect(extensionOf('fw.BIN')).toBe('bin');
    expect(extensionOf('C:\\builds\\v1.2\\model.TfLite')).toBe('tflite');
    expect(extensionOf('dir.bin/noext')).toBe('');
    expect(extensionOf('.bin')).toBe('');
  });

  it('accepts bin for patches, tflite for models and json for metadata in any case', () => {
    expect(() => checkExtension('resourceFile', 'PATCH', 'a.Bin')).not.toThrow();
    expect(() => checkExtension('resourceFile', 'MODEL', 'a.TFLITE')).not.toThrow();
    expect(() => checkExtension('metadataFile', 'MODEL', 'meta.JSON')).not.toThrow();
  });

  it("refuses a wrong type with 400 and 'File type is not supported'", () => {
    for (const [field, type, name] of [
      ['resourceFile', 'PATCH', 'a.tflite'],
      ['resourceFile', 'MODEL', 'a.bin'],
      ['metadataFile', 'MODEL', 'meta.txt'],
      ['resourceFile', 'PATCH', 'bin'],
    ] as const) {
      const e = thrown(() => checkExtension(field, type, name));
      expect(e).toBeInstanceOf(BadRequestError);
      expect((e as Error).message).toContain(MSG.fileTypeNotSupported);
    }
  });

  it('makes client file names safe inside an object key', () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('C:\\x\\fw ä$1.bin')).toBe('fw __1.bin');
    expect(safeFileName('..')).toBe('file');
  });
});

describe('sizes', () => {
  it("refuses an empty file with 406 'File size is too small'", () => {
    const e = thrown(() => checkSize('resourceFile', 0, 10));
    expect(e).toBeInstanceOf(NotAcceptableError);
    expect((e as Error).message).toBe(MSG.fileTooSmall);
  });

  it('refuses a file above the limit with 413 naming both sizes in MB', () => {
    const e = thrown(() => checkSize('metadataFile', 1_500_000, 1_000_000));
    expect(e).toBeInstanceOf(PayloadTooLargeError);
    expect((e as Error).message).toBe(
      `${MSG.fileTooBig}: the metadata file has 1.5 MB, at most 1 MB are accepted`,
    );
  });

  it('accepts a file of exactly the limit', () => {
    expect(() => checkSize('resourceFile', 10, 10)).not.toThrow();
  });
});

describe('TFLite identifier', () => {
  it('finds TFL3 at bytes 4..8', () => {
    expect(hasTfliteIdentifier(tflite())).toBe(true);
    expect(() => checkTflite(tflite('rest of model'))).not.toThrow();
  });

  it('refuses a model without it, or too short to hold it, with 406', () => {
    for (const head of [bytes('abcdTFL2'), bytes('TFL3'), new Uint8Array()]) {
      const e = thrown(() => checkTflite(head));
      expect(e).toBeInstanceOf(NotAcceptableError);
      expect((e as Error).message).toBe(RESOURCE_ERR.notTflite);
    }
  });

  it('does not accept the identifier at another offset', () => {
    expect(hasTfliteIdentifier(bytes('TFL3abcd'))).toBe(false);
  });
});

describe('model metadata', () => {
  it('gives modelName and version as modelName and modelVersion', () => {
    expect(parseModelMetadata(bytes('{"modelName":" Kws ","version":"1.2.0","extra":true}'))).toEqual({
      modelName: 'Kws',
      modelVersion: '1.2.0',
    });
  });

  it('accepts a numeric version and a leading BOM', () => {
    expect(parseModelMetadata(bytes('\uFEFF{"modelName":"a","version":3}'))).toEqual({
      modelName: 'a',
      modelVersion: '3',
    });
  });

  it('refuses text that is not JSON with 406 and the parser reason', () => {
    const e = thrown(() => parseModelMetadata(bytes('{modelName: a}')));
    expect(e).toBeInstanceOf(NotAcceptableError);
    expect((e as Error).message).toMatch(/^The metadata file is not valid JSON: /);
  });

  it('refuses JSON that is not an object', () => {
    expect((thrown(() => parseModelMetadata(bytes('[1]'))) as Error).message).toBe(
      RESOURCE_ERR.metadataNotObject,
    );
  });

  it('names the missing field', () => {
    const noName = thrown(() => parseModelMetadata(bytes('{"version":"1"}'))) as Error;
    expect(noName).toBeInstanceOf(NotAcceptableError);
    expect(noName.message).toContain('modelName');
    const noVersion = thrown(() => parseModelMetadata(bytes('{"modelName":"m"}'))) as Error;
    expect(noVersion.message).toContain('version');
    const blank = thrown(() => parseModelMetadata(bytes('{"modelName":"m","version":"  "}'))) as Error;
    expect(blank.message).toContain('metadata: version is required');
  });

  it('reports every problem at once, not only the first', () => {
    const both = thrown(() => parseModelMetadata(bytes('{"extra":1}'))) as Error;
    expect(both.message).toMatch(/^The metadata file is not usable: /);
    expect(both.message).toContain('modelName');
    expect(both.message).toContain('version');
    expect(both.message.split('; ')).toHaveLength(2);
  });
});

describe('keys and times', () => {
  it("formats the upload time as 'YYYY-MM-DD HH:MM:SS' in UTC", () => {
    expect(formatUploadTime(new Date('2026-03-04T05:06:07.891Z'))).toBe('2026-03-04 05:06:07');
  });

  it('claims names without case or surrounding spaces', () => {
    expect(nameClaimKey('  Main FW ')).toBe(nameClaimKey('main fw'));
    expect(typeStageKey('MODEL', 'RELEASE')).toBe('MODEL#RELEASE');
  });
});
