import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { startLocalStack } from './stack';

/**
 * `npm run dev`: the local stack's API on API_PORT (3001) and Vite's hot-reloading dev server on PORT
 * (5173), which proxies /dev to the API. The same emulators and data folder as `npm start`.
 */
const apiPort = Number(process.env.API_PORT ?? 3001);
const stack = await startLocalStack({
  port: apiPort,
  portVariable: 'API_PORT',
  dataDir: resolve(process.env.DATA_DIR ?? '.data'),
  webRoot: resolve('web/dist'),
});
console.log(`API on ${stack.url}/dev, mailbox on ${stack.mailboxUrl}`);
const vite = spawn(
  'npx',
  ['vite', '--config', 'web/vite.config.ts', '--port', process.env.PORT ?? '5173', '--strictPort'],
  {
    stdio: 'inherit',
    env: { ...process.env, API_PROXY_TARGET: stack.url },
  },
);
const stop = async () => {
  vite.kill('SIGTERM');
  await stack.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
vite.on('exit', () => void stop());
