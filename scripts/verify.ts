import { readFileSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { formatReport, verifyXmlFile } from '../lambdas/services/artefact/xml-verifier';

/**
 * `npm run verify -- package.xml [--key portal-public-key.pem] [--dev] [--extract dir]`: checks a
 * downloaded package offline (DESIGN §3, docs/package-format.md). Exit 0 when valid, 1 when any check
 * fails, 2 when the command itself is used wrongly or the file cannot be read. `--dev` (decision 194)
 * applies the policy of a device in a development mode: with `--key`, a DEV_UNSIGNED package is accepted
 * and the report says so loudly; never a release package.
 */

const USAGE = 'Usage: npm run verify -- <package.xml> [--key <public-key.pem>] [--dev] [--extract <dir>]';

/** Runs the command with `args` (without node and script), writing to `out`; returns the exit code. */
export async function runVerify(args: string[], out: (s: string) => void): Promise<number> {
  let file: string | undefined;
  let keyPath: string | undefined;
  let extractDir: string | undefined;
  let devMode = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--key' || a === '--extract') {
      const v = args[++i];
      if (!v) {
        out(`${a} needs a value\n${USAGE}\n`);
        return 2;
      }
      if (a === '--key') keyPath = v;
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
  if (devMode && !keyPath) {
    // without a key nothing is refused for being unsigned: development mode would mean nothing
    out(`--dev needs --key (the device policy it relaxes is the one with a trusted key)\n${USAGE}\n`);
    return 2;
  }
  let trustedKeyPem: string | undefined;
  try {
    trustedKeyPem = keyPath ? readFileSync(keyPath, 'utf8') : undefined;
    // a missing file is a usage error (2), not an invalid package (1)
    if (!statSync(file).isFile()) throw new Error('not a file');
    const report = await verifyXmlFile(file, { trustedKeyPem, extractDir, devMode });
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
