import '@testing-library/jest-dom/vitest';
import { File as NodeFile } from 'node:buffer';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { popups } from '@/lib/popup/popup-store';
import { session } from '@/lib/session/session-store';
import { removeToken } from '@/lib/session/token-cookie';
import { freshBackend, server } from './backend/server';

// The test backend signs tokens with jose, which takes only bytes of the global Uint8Array; jsdom replaced
// that global, and TextEncoder still answers bytes of Node's own: give them the global's type
class TestTextEncoder extends TextEncoder {
  override encode(input?: string): Uint8Array<ArrayBuffer> {
    return new Uint8Array(super.encode(input));
  }
}
globalThis.TextEncoder = TestTextEncoder;
// Node's File and FormData (fetch's, the one Response.formData answers), so a form's file reaches the
// backend with its name: MSW turns the request into a fetch Request, which reads no jsdom FormData
globalThis.File = NodeFile as unknown as typeof File;
globalThis.FormData = (await new Response(new URLSearchParams()).formData()).constructor as typeof FormData;

// the machine is shared (two cores, several test workers): a findBy waits for its state up to 15 s before
// giving up, so lazy route chunks and mock answers arrive under load; a passing test waits no longer
configure({ asyncUtilTimeout: 15_000 });

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
// each test starts from the sample data, in a backend of its own (the real services over memory adapters)
beforeEach(async () => {
  await freshBackend();
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  popups.close();
  removeToken();
  session.clear();
});
afterAll(() => server.close());
