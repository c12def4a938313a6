import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildXmlPackage } from './xml-package';
import { chunked, sampleInput, samplePayload } from './xml-package.fixtures';

/**
 * Byte-exact output of the builder (decision 170): the digests
 * below were taken from the builder at commit 8807778 for the same inputs. Sizes cover
 * each remainder mod 3 (0, 1, 2 bytes carried), chunkings that split triples, and payloads whose base64
 * spans several output chunks.
 */
const CASES: Array<{ size: number; chunk: number }> = [
  { size: 0, chunk: 65536 },
  { size: 1, chunk: 65536 },
  { size: 2, chunk: 65536 },
  { size: 3, chunk: 1 },
  { size: 65536, chunk: 65536 },
  { size: 65537, chunk: 7 * 1024 + 1 },
  { size: 196_608, chunk: 65536 },
  { size: 3 * 1024 * 1024 + 1, chunk: 65536 },
  { size: 3 * 1024 * 1024 + 2, chunk: 1024 * 1024 + 1 },
  { size: 5 * 1024 * 1024, chunk: 3 * 1024 * 1024 },
];

async function digestOf(size: number, chunk: number): Promise<string> {
  const payload = samplePayload(size);
  const input = sampleInput({ type: 'DEV_UNSIGNED', payload });
  const b = buildXmlPackage({ ...input, payload: { ...input.payload, bytes: chunked(payload, chunk) } });
  const h = createHash('sha256');
  for await (const c of b.stream) h.update(c as Buffer);
  await b.result;
  return h.digest('hex');
}

describe('buildXmlPackage output is byte-exact (golden digests)', () => {
  it.each(CASES)('$size bytes in chunks of $chunk', async ({ size, chunk }) => {
    expect(await digestOf(size, chunk)).toBe(GOLDEN[`${size}/${chunk}`]);
  });
});

const GOLDEN: Record<string, string> = {
  '0/65536': 'd43e53eac211b14516458a2fb873305cff8260b241ca09196486aa2d071d900b',
  '1/65536': 'dff0c257eb3fba0cdfb07e24dd3ba5db252da8ee9d21db13bf58014c89b52897',
  '2/65536': '50dccf223205355bacf7584445eaae29d48f8fa752f31c2f3a9d364d6ac33488',
  '3/1': 'e1d10eb913a1508e90ad16a6ee3378047374f9adb1474cadc7d804ced66c70a0',
  '65536/65536': 'e9b50b7e0885fb86c38ecc3c2975946655e34ad1528039a87e6ef987eb9f50c1',
  '65537/7169': '95e63cedf98f47a8a2390325ac23995341f6d78ac5906cdede66f23338f07cad',
  '196608/65536': '2e5cb8dbdfe18f1dcf4408897e84cddf4a01491a38dadaa5a8022c453ac682dd',
  '3145729/65536': 'd53c2e271a95db51a2ab8d4b119ff1444819d5a507c727288f4e3b50619b9799',
  '3145730/1048577': '9e35447ea5cd8cc8429ef4e9cd560663b3a51b36cf0b2fb837aae3f25f18aeaa',
  '5242880/3145728': '8d2285aa9bf7f94f0287037c1b3ea9b5c21be09c8c08a6a2222f41ca3df11f39',
};
