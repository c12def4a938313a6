import { setupWorker } from 'msw/browser';
import { handlers } from './handlers';

/** Mock mode (spec §7): a service worker answers /dev/* with the fixtures. */
export async function startMockWorker(): Promise<void> {
  await setupWorker(...handlers).start({
    onUnhandledRequest: 'bypass',
    serviceWorker: { url: '/mockServiceWorker.js' },
  });
  console.info('[mock mode] API calls are answered with sample data. Password of every user: Local-Dev-1234');
}
