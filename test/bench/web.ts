import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { startStackProcess } from '../support/stack-process';
import { info, kb, notMeasured, onInterrupt, progress, type Row, verdict } from './report';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..', '..');
const SECTION = 'web';
const INITIAL_JS_KB = 150;
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
/** The pages Lighthouse audits: what a visitor who is not signed in sees first. */
const PAGES = ['/login', '/register'];

/** Lighthouse's own "good" band: DESIGN §7 asks for the scores without a number. */
const GOOD_SCORE = 90;

const gz = (b: Buffer) => gzipSync(b, { level: 9 }).length;

/**
 * The production build of the SPA, into a temporary folder (web/dist belongs to whoever runs `npm start`;
 * the bench must not swap it under them). Same command and config as `npm run build:web`.
 */
async function buildWeb(out: string): Promise<void> {
  await run(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'web/vite.config.ts',
      '--outDir',
      out,
      '--emptyOutDir',
    ],
    { cwd: ROOT, timeout: 600_000, maxBuffer: 32 * 1024 * 1024 },
  );
}

/** Scripts index.html loads before the first screen: the entry module and the chunks it preloads. */
function initialAssets(dist: string): { js: string[]; css: string[] } {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const attr = (re: RegExp) => [...html.matchAll(re)].map((m) => m[1]!);
  return {
    js: [
      ...attr(/<script[^>]+type="module"[^>]+src="([^"]+)"/g),
      ...attr(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
    ],
    css: attr(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g),
  };
}

interface LighthouseResult {
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number; displayValue?: string }>;
  runtimeError?: { code: string; message: string };
}

async function lighthouse(url: string, outFile: string): Promise<LighthouseResult> {
  await run(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'lighthouse', 'cli', 'index.js'),
      url,
      '--preset=desktop',
      '--only-categories=performance,accessibility',
      '--output=json',
      `--output-path=${outFile}`,
      '--quiet',
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --disable-background-networking --disable-component-update --disable-sync',
    ],
    {
      cwd: ROOT,
      env: { ...process.env, CHROME_PATH: CHROME },
      timeout: 300_000,
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return JSON.parse(readFileSync(outFile, 'utf8')) as LighthouseResult;
}

export async function benchWeb(tmp: string): Promise<Row[]> {
  const rows: Row[] = [];
  const dist = join(tmp, 'web-dist');
  progress('production build of the SPA (vite build --config web/vite.config.ts)');
  try {
    await buildWeb(dist);
  } catch (e) {
    const err = e as Error & { stderr?: string };
    const why = (err.stderr || err.message).split('\n').find((l) => /error/i.test(l)) ?? err.message;
    return [
      notMeasured(
        SECTION,
        'initial JS (gzip)',
        `build failed: ${why.trim().slice(0, 120)}`,
        `≤ ${INITIAL_JS_KB} KB`,
      ),
      notMeasured(SECTION, 'Lighthouse', 'no build to audit', '—'),
    ];
  }

  const { js, css } = initialAssets(dist);
  const file = (p: string) => readFileSync(join(dist, p.replace(/^\//, '')));
  const initialJs = js.reduce((n, p) => n + gz(file(p)), 0);
  const allJs = listJs(dist).reduce((n, p) => n + gz(readFileSync(p)), 0);
  rows.push({
    section: SECTION,
    name: `initial JS (gzip), ${js.length} file${js.length === 1 ? '' : 's'}`,
    value: `${kb(initialJs)} (raw ${kb(js.reduce((n, p) => n + file(p).length, 0))}); all JS ${kb(allJs)} gz in ${listJs(dist).length} files`,
    target: `≤ ${INITIAL_JS_KB} KB`,
    verdict: verdict(initialJs / 1024 <= INITIAL_JS_KB),
  });
  if (css.length)
    rows.push(info(SECTION, 'initial CSS (gzip)', kb(css.reduce((n, p) => n + gz(file(p)), 0))));

  if (!existsSync(join(ROOT, 'node_modules', 'lighthouse', 'cli', 'index.js'))) {
    rows.push(
      notMeasured(SECTION, 'Lighthouse', 'lighthouse is not installed (npm i -D lighthouse@12.8.2)', '—'),
    );
    return rows;
  }
  if (!existsSync(CHROME)) {
    rows.push(notMeasured(SECTION, 'Lighthouse', `no Chromium at ${CHROME} (set CHROME_PATH)`, '—'));
    return rows;
  }
  progress('local stack serving the build, for Lighthouse');
  const stack = await startStackProcess({ WEB_ROOT: dist });
  const forget = onInterrupt(() => stack.stop());
  try {
    for (const page of PAGES) {
      progress(`Lighthouse (desktop) ${page}`);
      try {
        const r = await lighthouse(
          `${stack.url}${page}`,
          join(tmp, `lighthouse${page.replace(/\//g, '-')}.json`),
        );
        if (r.runtimeError) throw new Error(`${r.runtimeError.code}: ${r.runtimeError.message}`);
        const score = (c: string) => Math.round((r.categories[c]?.score ?? 0) * 100);
        const metric = (a: string) => r.audits[a]?.displayValue ?? '?';
        rows.push({
          section: SECTION,
          name: `Lighthouse desktop ${page}: performance`,
          value: `${score('performance')} (FCP ${metric('first-contentful-paint')}, LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')})`,
          target: `≥ ${GOOD_SCORE}`,
          verdict: verdict(score('performance') >= GOOD_SCORE),
        });
        rows.push({
          section: SECTION,
          name: `Lighthouse desktop ${page}: accessibility`,
          value: String(score('accessibility')),
          target: `≥ ${GOOD_SCORE}`,
          verdict: verdict(score('accessibility') >= GOOD_SCORE),
        });
      } catch (e) {
        const err = e as Error & { stderr?: string };
        rows.push(
          notMeasured(
            SECTION,
            `Lighthouse desktop ${page}`,
            `lighthouse failed: ${(err.stderr || err.message).trim().split('\n').pop()?.slice(0, 120)}`,
            '—',
          ),
        );
      }
    }
  } finally {
    await stack.stop();
    forget();
  }
  return rows;
}

function listJs(dist: string): string[] {
  return readdirSync(join(dist, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => join(dist, 'assets', f));
}
