import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, Stack } from 'aws-cdk-lib';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeById } from '../../shared/api/routes';
import { lambdaCode, routeCode } from '../lib/constructs/api';
import { CDK_JSON_CONTEXT } from './support/synth';

/**
 * One handler bundled through the stack's own NodejsFunction settings, with the local esbuild and no
 * Docker. `npm run synth` bundles all of them; this keeps `npm test` fast while proving the settings.
 */
let bundle: string;
let credentialsProbe: string;

/** Bundles one function with the stack's settings and returns the path of its index.mjs. */
function bundleOne(id: string, props: ConstructorParameters<typeof NodejsFunction>[2]): string {
  const outdir = mkdtempSync(join(tmpdir(), 'frp-bundle-'));
  const stack = new Stack(new App({ context: CDK_JSON_CONTEXT, outdir }), 'Bundle');
  // Assets are staged (bundled) when the function is constructed.
  new NodejsFunction(stack, id, props);
  const dirs = readdirSync(outdir).filter((d) => d.startsWith('asset.'));
  expect(dirs).toHaveLength(1);
  return join(outdir, dirs[0]!, 'index.mjs');
}

beforeAll(() => {
  bundle = bundleOne('Login', routeCode(routeById('login'), true));
  credentialsProbe = bundleOne(
    'Probe',
    lambdaCode(join(import.meta.dirname, 'fixtures', 'sdk-credentials.ts'), false),
  );
}, 120_000);

/** Runs a bundle's handler in a fresh Node with exactly these environment variables. */
function runHandler(file: string, env: Record<string, string>): string {
  return execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(JSON.stringify(await m.handler()));`,
    ],
    { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), ...env }, stdio: 'pipe' },
  ).trim();
}

/** The npm packages a bundle was built from, read from its source map. */
function bundledPackages(file: string): Set<string> {
  const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] };
  const names = map.sources.map((s) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(s)?.[1]).filter(Boolean);
  return new Set(names as string[]);
}

describe('Lambda bundling', () => {
  it('emits a minified ESM bundle with a source map beside it', () => {
    const code = readFileSync(bundle, 'utf8');
    // The banner gives ESM a require() for the CommonJS parts of the dependencies.
    expect(code.startsWith("import { createRequire as __frpCreateRequire } from 'node:module';")).toBe(true);
    expect(code.trimEnd().endsWith('//# sourceMappingURL=index.mjs.map')).toBe(true);
    expect(existsSync(`${bundle}.map`)).toBe(true);
    // Minified: a few very long lines (template literals keep their own line breaks).
    expect(code.length / code.split('\n').length).toBeGreaterThan(1000);
  });

  it('bundles the AWS SDK instead of importing it from the runtime', () => {
    const code = readFileSync(bundle, 'utf8');
    expect(code.includes('DynamoDB_20120810')).toBe(true);
    expect(/from\s*["']@aws-sdk\//.test(code)).toBe(false);
  });

  it('loads in Node as an ES module and exports the handler', () => {
    const out = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(pathToFileURL(bundle).href)}); console.log(typeof m.handler);`,
      ],
      { encoding: 'utf8', env: { ...process.env, AWS_REGION: 'us-east-1' } },
    );
    expect(out.trim()).toBe('function');
  });

  it("carries environment credentials only, not the SDK's SSO/INI/IMDS chain (decision 132)", () => {
    const packages = bundledPackages(bundle);
    expect(packages.has('@aws-sdk/credential-provider-env')).toBe(true);
    for (const dropped of [
      '@aws-sdk/credential-provider-node',
      '@aws-sdk/credential-provider-sso',
      '@aws-sdk/credential-provider-ini',
      '@smithy/credential-provider-imds',
      '@aws-sdk/nested-clients',
    ])
      expect(packages.has(dropped), dropped).toBe(false);
  });

  it('lets the bundled SDK sign with the role credentials Lambda puts in the environment', () => {
    const env = {
      AWS_REGION: 'eu-central-1',
      AWS_ACCESS_KEY_ID: 'ASIAPROBE',
      AWS_SECRET_ACCESS_KEY: 'probe-secret',
      AWS_SESSION_TOKEN: 'probe-token',
    };
    expect(JSON.parse(runHandler(credentialsProbe, env))).toEqual({
      accessKeyId: 'ASIAPROBE',
      sessionToken: 'probe-token',
    });
    // Without them it fails loudly instead of wandering off to files or the metadata service.
    expect(() => runHandler(credentialsProbe, { AWS_REGION: 'eu-central-1' })).toThrow(
      /AWS_ACCESS_KEY_ID|credentials/i,
    );
  });
});
