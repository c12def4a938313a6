import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * Mock mode only (spec §7): serve MSW's service worker script from node_modules at /mockServiceWorker.js,
 * so no generated file lives in web/ and nothing of it reaches the production build.
 */
function mswWorker(): Plugin {
  const script = createRequire(import.meta.url).resolve('msw/mockServiceWorker.js');
  return {
    name: 'frp-msw-worker',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use('/mockServiceWorker.js', (_req, res) => {
        res.setHeader('Content-Type', 'text/javascript');
        res.setHeader('Service-Worker-Allowed', '/');
        createReadStream(script).pipe(res);
      });
    },
  };
}

/**
 * The browser has no node:zlib: shared/domain/header/crc32.ts (zlib's crc32 on the server) is replaced by
 * the small table implementation in web/src/lib/crc32/crc32.ts, which its test checks against zlib.
 */
function browserCrc32(): Plugin {
  const shared = `${repoRoot}shared/domain/header/`;
  return {
    name: 'frp-browser-crc32',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === './crc32' && importer?.startsWith(shared)) return `${webRoot}src/lib/crc32/crc32.ts`;
      return null;
    },
  };
}

export default defineConfig(({ mode }) => ({
  root: webRoot,
  resolve: { alias: { '@': `${webRoot}src`, '@shared': `${repoRoot}shared` } },
  plugins: [
    browserCrc32(),
    react(),
    ...(mode === 'mock' || process.env.VITE_MOCK === 'true' ? [mswWorker()] : []),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
  },
  server: {
    proxy: {
      '/dev': { target: process.env.API_PROXY_TARGET ?? 'http://localhost:3000', changeOrigin: true },
    },
    // the app imports ../shared (texts, roles, contracts)
    fs: { allow: [repoRoot] },
  },
}));
