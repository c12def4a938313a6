import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chunked, sampleInput, samplePayload } from '../../testing/artefact/xml-package.fixtures';
import { buildXmlPackage } from './xml-package';

/**
 * Byte-exact output of the builder (decision 170): the digests below are the builder's at commit 8807778
 * for the same inputs, with the approval and signature meanings of decision 141 (with the older meanings
 * the builder after the 10 GiB resource work gives 8807778's digests exactly: checked when decision 141 was merged). Sizes cover
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
  '0/65536': 'a9deb62f18ee4575606e05c74faabac33d93bf9f8c89c35d1d969e2eb7e23f7f',
  '1/65536': '2dd32ea28766a612bbe0d4bc5c5e2b676c4c7bd22f3e9d3d98c7519dfc17a75f',
  '2/65536': 'f2df6dbe4a029d3a600c4399ff245e21f8534722e101e971cc1d97eebaa3f57e',
  '3/1': 'cc97caf330301ac569f729b8c667f697277cc4a322aca89a998440df75b454cc',
  '65536/65536': '42f41fbfb4b3cb941715bd2c1f7d8e8a70a1405ec117e3bb61d782bf9958cdb3',
  '65537/7169': 'e13ed2449dc9f43cee69c924f9a487f137386c2e44c7f76efa1a03a4ebce9dd3',
  '196608/65536': '70b4200a2f4eb0383f97aa6dab25bce3ce59cfb3b055cd5dc7fe320bc7972e5f',
  '3145729/65536': '7b02445a5d2ccbfe892858c8c1a98935914e9a786c519fcd0a0b588498c1182c',
  '3145730/1048577': 'e0cb6dd3d6eba9f669d939d81ab0bfac4fc62fc25ccfe5f9fb4cb71f69206811',
  '5242880/3145728': '938424af7b8e0f88068efaf30c671fea51ea8fa2f9a5c0a338979a3bcd215c81',
};
