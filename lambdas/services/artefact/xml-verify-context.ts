import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PackageManifest } from './xml-format';

/** The report of the offline verifier, and the running state its checks add to. */

export interface VerifyOptions {
  /**
   * The PEM public keys a device trusts (the portal's, from GET /dev/signing-key.pem?stage=…). Given, the
   * verifier applies the device policy of docs/package-format.md §7: a package not signed by one of these
   * keys fails (an unsigned one included), and, outside development mode, every development package
   * fails too (a device in the field holds the release key and takes release packages only; decision 296).
   */
  trustedKeyPems?: readonly string[];
  /**
   * Development mode (`npm run verify -- --dev`, decisions 194, 296): with trusted keys (the development
   * key and the release key), a DEV_SIGNED package signed by one of them and a DEV_UNSIGNED package are
   * accepted as a device in a development mode accepts them (docs/package-format.md §7 rule 1), and the
   * report says so loudly. Never for release: a RELEASE_UNSIGNED package still fails.
   */
  devMode?: boolean;
  /** a directory to write the parts to: header.bin, payload.bin, patch-config.bin, data.bin (the signed bytes), sig.der, key.pem */
  extractDir?: string;
}

export interface VerifyCheck {
  name: string;
  ok: boolean;
  detail: string;
}

export interface VerifyReport {
  /** true when every check passed */
  valid: boolean;
  checks: VerifyCheck[];
  /** things that are not failures but limit what was proven */
  warnings: string[];
  manifest?: PackageManifest;
  /**
   * 'unsigned' when the package passed only because development mode accepted it unsigned (decision 194),
   * 'development' when it is a signed development package that only development mode accepts (decision 296)
   */
  devModeAccepted?: 'unsigned' | 'development';
  /** the trusted key (PEM) the package's signature verified with: its statement must be signed by it too */
  signedBy?: string;
  /** extracted part → file path */
  extracted: Record<string, string>;
}

export const hex32 = (n: number) => `0x${n.toString(16).toUpperCase().padStart(8, '0')}`;
export const sha256Hex = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
export const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Checks, warnings and extracted parts gathered while one package is verified. */
export class VerifyContext {
  readonly checks: VerifyCheck[] = [];
  readonly warnings: string[] = [];
  readonly extracted: Record<string, string> = {};
  /** set when development mode accepted a development package (decisions 194, 296) */
  devModeAccepted: VerifyReport['devModeAccepted'];
  /** the trusted key that verified the signature */
  signedBy: string | undefined;
  /** the directory parts are written to, when asked */
  readonly out: string | undefined;

  constructor(readonly options: VerifyOptions) {
    this.out = options.extractDir;
    if (this.out) mkdirSync(this.out, { recursive: true });
  }

  /** Records one check; answers whether it passed. */
  check(name: string, ok: boolean, detail: string): boolean {
    this.checks.push({ name, ok, detail });
    return ok;
  }

  /** Runs `step`; when it throws, check `name` is recorded as failed with the error's message. */
  guard<T>(name: string, step: () => T): T | undefined {
    try {
      return step();
    } catch (e) {
      this.check(name, false, message(e));
      return undefined;
    }
  }

  /** Writes a part to the extraction directory, when one was given. */
  save(name: string, bytes: Uint8Array | string): void {
    if (!this.out) return;
    writeFileSync(join(this.out, name), bytes);
    this.extracted[name] = join(this.out, name);
  }

  report(manifest?: PackageManifest): VerifyReport {
    const valid = this.checks.length > 0 && this.checks.every((c) => c.ok);
    return {
      valid,
      checks: this.checks,
      warnings: this.warnings,
      ...(manifest ? { manifest } : {}),
      // only a package that passed was accepted: an invalid one gets no development-mode banner
      ...(valid && this.devModeAccepted ? { devModeAccepted: this.devModeAccepted } : {}),
      ...(this.signedBy ? { signedBy: this.signedBy } : {}),
      extracted: this.extracted,
    };
  }
}
