import { createReadStream } from 'node:fs';
import { VerifyContext, type VerifyOptions, type VerifyReport } from './xml-verify-context';
import {
  checkHeader,
  checkHeaderDescribes,
  checkManifest,
  checkPatchConfig,
  checkPayload,
  checkSignatureRecords,
  checkStructure,
  readPackage,
} from './xml-verify-parts';
import { checkReadableCopy, checkSignature } from './xml-verify-signature';

export type { VerifyCheck, VerifyOptions, VerifyReport } from './xml-verify-context';

/**
 * Checks an XML package offline (DESIGN §3, `npm run verify`): structure, header CRC and layout, payload
 * and patch-config digests, that every readable part matches the signed manifest, and the signature,
 * with the key embedded in the file and, when given, a trusted key. Reads the file once, streaming the
 * payload; never throws for a bad file, it reports. The checks live in xml-verify-parts.ts and
 * xml-verify-signature.ts, in the order they run here.
 */

/** Verifies the XML package read from `source`; see VerifyReport. */
export async function verifyXmlPackage(
  source: AsyncIterable<Uint8Array>,
  options: VerifyOptions = {},
): Promise<VerifyReport> {
  const ctx = new VerifyContext(options);
  const read = await readPackage(ctx, source);
  if (!read || !checkStructure(ctx, read.root)) return ctx.report();
  const { root, raw, payload } = read;
  const child = (name: string) => root.children.find((c) => c.name === name);

  const signed = checkManifest(ctx, child('manifest')!);
  if (!signed) return ctx.report();
  const { manifest, manifestBytes } = signed;
  const { header, headerBytes } = checkHeader(ctx, child('header')!, manifest);
  checkPayload(ctx, payload, child('payloadDigest')!, manifest);
  const configBytes = checkPatchConfig(ctx, child('patchConfig'), manifest);
  if (header) checkHeaderDescribes(ctx, manifest, { header, payloadSize: payload.size, configBytes });
  checkSignatureRecords(ctx, manifest);
  const { signature, publicKeyDer } = checkSignature(
    ctx,
    manifest,
    manifestBytes,
    child('signature'),
    child('publicKey'),
  );
  if (header && headerBytes)
    await checkReadableCopy(ctx, root, raw, {
      manifest,
      manifestBytes,
      header,
      headerBytes,
      configBytes,
      signature,
      publicKeyDer,
    });
  return ctx.report(manifest);
}

/** Verifies the XML package in file `path`. */
export function verifyXmlFile(path: string, options: VerifyOptions = {}): Promise<VerifyReport> {
  return verifyXmlPackage(createReadStream(path, { highWaterMark: 256 * 1024 }), options);
}

/** The report as text for a terminal: one line per check, warnings, then the verdict. */
export function formatReport(r: VerifyReport): string {
  const lines: string[] = [];
  if (r.devModeAccepted === 'unsigned')
    lines.push('*** DEVELOPMENT MODE (--dev): an UNSIGNED development package was accepted ***');
  else if (r.devModeAccepted === 'development')
    lines.push(
      '*** DEVELOPMENT MODE (--dev): a development package was accepted; a device in the field refuses it ***',
    );
  if (r.manifest) {
    const p = r.manifest.package;
    lines.push(
      `Package ${JSON.stringify(p.name)} (${p.type}, ${p.stage}), id ${p.id}, generated ${p.generatedAt}`,
    );
  }
  for (const c of r.checks) lines.push(`  ${c.ok ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}`);
  for (const w of r.warnings) lines.push(`  NOTE  ${w}`);
  for (const [name, path] of Object.entries(r.extracted)) lines.push(`  wrote ${name} -> ${path}`);
  const failed = r.checks.filter((c) => !c.ok).length;
  lines.push(
    r.valid
      ? r.devModeAccepted
        ? `VERDICT: VALID IN DEVELOPMENT MODE ONLY (${r.devModeAccepted === 'unsigned' ? 'unsigned' : 'a development package'}; a device in the field refuses it)`
        : 'VERDICT: VALID'
      : `VERDICT: INVALID (${failed} check${failed === 1 ? '' : 's'} failed)`,
  );
  return `${lines.join('\n')}\n`;
}
