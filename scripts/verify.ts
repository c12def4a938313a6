import { createPublicKey } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { verifyStatement } from '../lambdas/services/artefact/provenance-statement-verify';
import { formatReport, type VerifyReport, verifyXmlFile } from '../lambdas/services/artefact/xml-verifier';

/**
 * `npm run verify -- package.xml [--key release-key.pem]… [--dev] [--extract dir]
 * [--statement statement.json [--sbom sbom.json]]`: checks a downloaded package offline (DESIGN §3,
 * docs/package-format.md) as a device does. Exit 0 when valid, 1 when any check fails, 2 when the command
 * itself is used wrongly or a file cannot be read.
 *
 * - `--key` (repeatable) gives the keys the device trusts. Without `--dev` it is a device in the field: it
 *   holds the release key and refuses every development package, whatever key signed it (decision 296).
 * - `--dev` is a device in a development mode (decisions 194, 296): given the development key and the
 *   release key (`--dev --key dev.pem --key release.pem`), it also accepts DEV_SIGNED packages signed by
 *   either (older ones carry the release key's signature) and DEV_UNSIGNED ones, and says so loudly;
 *   never an unsigned release package.
 * - `--statement` (decision 279) also checks the package's signed provenance statement with the key that
 *   signed the package, in its one form (decision 297), and `--sbom` an SBOM file against it.
 */

const USAGE =
  'Usage: npm run verify -- <package.xml> [--key <public-key.pem>]... [--dev] [--extract <dir>] [--statement <statement.json> [--sbom <sbom.json>]]';

/** Adds the provenance statement's checks to the package's report (docs/package-format.md, sidecar). */
function withStatement(
  report: VerifyReport,
  trustedKeyPems: readonly string[],
  statementPath: string,
  sbomPath: string | undefined,
): VerifyReport {
  const r = verifyStatement({
    envelopeText: readFileSync(statementPath, 'utf8'),
    // the statement is signed by the package's own key: the trusted key that verified the package
    trustedKeyPems: report.signedBy ? [report.signedBy] : trustedKeyPems,
    manifest: report.manifest,
    ...(sbomPath ? { sbom: { name: sbomPath, bytes: readFileSync(sbomPath) } } : {}),
  });
  const checks = [...report.checks, ...r.checks];
  const { devModeAccepted, ...rest } = report;
  const valid = report.valid && checks.every((c) => c.ok);
  return {
    ...rest,
    checks,
    warnings: [...report.warnings, ...r.warnings],
    valid,
    // a refused statement refuses the whole: no development-mode banner then
    ...(valid && devModeAccepted ? { devModeAccepted } : {}),
  };
}

/** Where the key file comes from, for the refusals below. */
const GET_KEY = 'Save the portal key as a PEM file: curl -so portal-key.pem <portal>/dev/signing-key.pem';

/**
 * Why the text of the `--key` file is not a PEM public key, or undefined when it is one (the
 * JSON of GET /dev/signing-key saved as the key gave a cryptic decoder error).
 */
export function keyFileProblem(keyPath: string, text: string): string | undefined {
  const t = text.trim();
  const notPem = `The key file ${keyPath} is not a PEM public key`;
  if (t.startsWith('{'))
    return `${notPem}: it is JSON (the answer of GET /dev/signing-key?), not the PEM text "-----BEGIN PUBLIC KEY-----". ${GET_KEY}`;
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(t))
    return `${notPem}: it is a private key. Give the portal's public key, never a private one. ${GET_KEY}`;
  if (!t.startsWith('-----BEGIN PUBLIC KEY-----'))
    return `${notPem}: it must start with "-----BEGIN PUBLIC KEY-----". ${GET_KEY}`;
  try {
    createPublicKey({ key: t, format: 'pem' });
    return undefined;
  } catch {
    return `${notPem}: its "-----BEGIN PUBLIC KEY-----" block cannot be read (cut short or changed?). ${GET_KEY}`;
  }
}

/** Runs the command with `args` (without node and script), writing to `out`; returns the exit code. */
export async function runVerify(args: string[], out: (s: string) => void): Promise<number> {
  let file: string | undefined;
  const keyPaths: string[] = [];
  let extractDir: string | undefined;
  let statementPath: string | undefined;
  let sbomPath: string | undefined;
  let devMode = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--key' || a === '--extract' || a === '--statement' || a === '--sbom') {
      const v = args[++i];
      if (!v) {
        out(`${a} needs a value\n${USAGE}\n`);
        return 2;
      }
      if (a === '--key') keyPaths.push(v);
      else if (a === '--statement') statementPath = v;
      else if (a === '--sbom') sbomPath = v;
      else extractDir = v;
    } else if (a === '--dev') {
      devMode = true;
    } else if (a === '--help' || a === '-h') {
      out(`${USAGE}\n`);
      return 0;
    } else if (a.startsWith('-') || file) {
      out(`Unexpected argument ${a}\n${USAGE}\n`);
      return 2;
    } else file = a;
  }
  if (!file) {
    out(`${USAGE}\n`);
    return 2;
  }
  if (devMode && keyPaths.length === 0) {
    // without a key nothing is refused for being unsigned: development mode would mean nothing
    out(`--dev needs --key (the device policy it relaxes is the one with a trusted key)\n${USAGE}\n`);
    return 2;
  }
  if (statementPath && keyPaths.length === 0) {
    // the envelope carries no key: only the trusted one can say the portal signed it
    out(`--statement needs --key (the statement is checked with the trusted portal key)\n${USAGE}\n`);
    return 2;
  }
  if (sbomPath && !statementPath) {
    out(`--sbom needs --statement (the SBOM is checked against the pin the statement signs)\n${USAGE}\n`);
    return 2;
  }
  try {
    const trustedKeyPems = keyPaths.map((p) => readFileSync(p, 'utf8'));
    for (const [i, p] of keyPaths.entries()) {
      const problem = keyFileProblem(p, trustedKeyPems[i]!);
      if (problem) {
        out(`${problem}\n`);
        return 2;
      }
    }
    // a missing file is a usage error (2), not an invalid package (1)
    if (!statSync(file).isFile()) throw new Error('not a file');
    for (const p of [statementPath, sbomPath])
      if (p && !statSync(p).isFile()) throw new Error(`${p} is not a file`);
    let report = await verifyXmlFile(file, {
      ...(trustedKeyPems.length > 0 ? { trustedKeyPems } : {}),
      extractDir,
      devMode,
    });
    if (statementPath) report = withStatement(report, trustedKeyPems, statementPath, sbomPath);
    out(formatReport(report));
    return report.valid ? 0 : 1;
  } catch (e) {
    out(`Cannot verify ${file}: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runVerify(process.argv.slice(2), (s) => process.stdout.write(s)).then((code) => {
    process.exitCode = code;
  });
}
