import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, Stack } from 'aws-cdk-lib';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { describe, expect, it } from 'vitest';
import { WORKERS, workerFile } from '../../shared/api/workers';
import { lambdaCode } from '../lib/constructs/api';
import { REPO_ROOT } from '../lib/portal-config';
import { CDK_JSON_CONTEXT } from './support/synth';

/** Each stream worker bundled with the stack's settings loads in Node and exports its handler. */
describe('stream worker bundles', () => {
  for (const w of WORKERS) {
    it(`bundles and loads ${w.id}`, () => {
      const outdir = mkdtempSync(join(tmpdir(), 'frp-worker-bundle-'));
      const stack = new Stack(new App({ context: CDK_JSON_CONTEXT, outdir }), 'Bundle');
      new NodejsFunction(
        stack,
        'Worker',
        lambdaCode(join(REPO_ROOT, 'lambdas', 'workers', `${workerFile(w.id)}.ts`), true),
      );
      const dirs = readdirSync(outdir).filter((d) => d.startsWith('asset.'));
      expect(dirs).toHaveLength(1);
      const bundle = join(outdir, dirs[0]!, 'index.mjs');
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
    }, 120_000);
  }
});
