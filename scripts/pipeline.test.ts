import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandLine, USAGE } from './pipeline';

/** The pipeline CLI's command line, run as CI runs it (a child process through tsx): no network needed. */
function cli(...args: string[]) {
  const r = spawnSync(
    process.execPath,
    [join(process.cwd(), 'node_modules/tsx/dist/cli.mjs'), 'scripts/pipeline.ts', ...args],
    {
      encoding: 'utf8',
      env: { ...process.env, FRP_TOKEN: '' },
    },
  );
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const EVERY_FLAG = [
  '--url',
  '--file',
  '--resource-name',
  '--stage',
  '--package-name',
  '--package-type',
  '--note',
  '--header',
  '--dcc',
  '--metadata',
  '--provenance',
  '--repository',
  '--commit',
  '--build-id',
  '--build-url',
  '--builder',
  '--sbom',
  '--help',
];

describe('npm run pipeline -- --help', () => {
  it('prints the usage with every flag on stdout and exits 0', () => {
    for (const flag of ['--help', '-h']) {
      const r = cli(flag);
      expect(r.code).toBe(0);
      expect(r.stderr).not.toMatch(/TypeError/);
      for (const f of EVERY_FLAG) expect(r.stdout).toContain(f);
    }
  });

  it('answers help even beside other flags, before asking for a token', () => {
    expect(commandLine(['--url', 'https://p.example', '--help'], {})).toEqual({ kind: 'help' });
  });

  it('refuses an unknown flag with a clear error, the usage and exit code 2', () => {
    const r = cli('--colour', 'red');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^pipeline: Unknown option '--colour'/);
    expect(r.stderr).toContain(USAGE);
    expect(r.stderr).not.toMatch(/TypeError|ERR_PARSE_ARGS|\n\s+at /);
    expect(r.stdout).toBe('');
  });

  it('refuses a flag without its value with exit code 2', () => {
    const r = cli('--url');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--url/);
    expect(r.stderr).toContain(USAGE);
  });

  it('still exits 1 with the reason when a required flag is missing', () => {
    const r = cli('--url', 'https://p.example');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^pipeline: FRP_TOKEN is not set/);
  });
});
