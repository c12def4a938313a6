import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { popups } from '@/lib/popup/popup-store';
import { session } from '@/lib/session/session-store';
import { removeToken } from '@/lib/session/token-cookie';
import { resetMockDb } from './mocks/db';
import { server } from './mocks/server';

// the machine is shared: give lazy route chunks time to load under load before a findBy gives up
configure({ asyncUtilTimeout: 5000 });

// jsdom lacks these; Amplify UI's menu (Radix) and media queries use them
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
if (!globalThis.ResizeObserver) {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
Element.prototype.scrollIntoView ??= () => {};
window.scrollTo = () => {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  resetMockDb();
  popups.close();
  removeToken();
  session.clear();
});
afterAll(() => server.close());
