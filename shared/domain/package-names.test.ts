import { describe, expect, it } from 'vitest';
import { defaultPackageName, freeName } from './package-names';

describe('package names (spec §2.8)', () => {
  it('defaults to the patch name and upload time, or the model name and version', () => {
    expect(defaultPackageName({ resourceType: 'PATCH', name: 'fw', uploadTime: '2024-03-04 09:12:44' })).toBe(
      'fw_2024-03-04 09:12:44',
    );
    expect(
      defaultPackageName({
        resourceType: 'MODEL',
        name: 'm',
        uploadTime: 't',
        modelName: 'Net',
        modelVersion: '2.3',
      }),
    ).toBe('Net_2.3');
    expect(defaultPackageName({ resourceType: 'MODEL', name: 'm', uploadTime: 't' })).toBe('m');
  });

  it('makes a taken name free with the smallest _N from 2, ignoring case', () => {
    expect(freeName('fw_1', [])).toBe('fw_1');
    expect(freeName('fw_1', ['FW_1'])).toBe('fw_1_2');
    expect(freeName('fw_1', ['fw_1', 'fw_1_2', 'fw_1_4'])).toBe('fw_1_3');
  });
});
