import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalAsyncInvoker } from './async-invoke';
import { LocalAccessDenied, routeScope } from './iam-check';

describe('local asynchronous invocation (decision 160)', () => {
  const invoker = new LocalAsyncInvoker({
    dataDir: mkdtempSync(join(tmpdir(), 'frp-async-')),
    log: () => {},
  });

  it('refuses a route whose row does not name the worker in uses.invoke, as IAM would', () => {
    const call = () =>
      routeScope.run({ id: 'rejectPackage', uses: { tables: ['packages'] } }, () =>
        invoker.invoke('generateArtefact', { packageId: 'p', jobId: 'j' }),
      );
    expect(call).toThrow(LocalAccessDenied);
    expect(call).toThrow(/route rejectPackage invokes generateArtefact/);
  });

  it('knows only the workers of shared/api/workers.ts', () => {
    expect(() => invoker.invoke('somethingElse', {})).toThrow(/No asynchronous worker somethingElse/);
  });
});
