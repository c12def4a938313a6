import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, Stack } from 'aws-cdk-lib';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeById } from '../../shared/api/routes';
import { routeCode } from '../lib/constructs/api';
import { CDK_JSON_CONTEXT } from './support/synth';

/**
 * One handler bundled through the stack's own NodejsFunction settings, with the local esbuild and no
 * Docker. `npm run synth` bundles all of them; this keeps `npm test` fast while proving the settings.
 */
let bundle: string;
beforeAll(() => {
  const outdir = mkdtempSync(join(tmpdir(), 'frp-bundle-'));
  const stack = new Stack(new App({ context: CDK_JSON_CONTEXT, outdir }), 'Bundle');
  // Assets are staged (bundled) when the function is constructed.
  new NodejsFunction(stack, 'Login', routeCode(routeById('login'), true));
  const dirs = readdirSync(outdir).filter((d) => d.startsWith('asset.'));
  expect(dirs).toHaveLength(1);
  bundle = join(outdir, dirs[0]!, 'index.mjs');
}, 120_000);

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
});
