import { fireEvent, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AppProvider } from '@/app/provider';
import { createRoutes } from '@/app/router';
import { setToken } from '@/lib/session/token-cookie';
import { tokenOf } from './backend/server';

export interface RenderAppOptions {
  /** sample user id to start signed in as (a token the backend issued to that user) */
  as?: string;
}

/** Renders the whole app at a path, as bulletproof-react does: real routes, MSW answering the calls. */
export function renderApp(path: string, options: RenderAppOptions = {}) {
  if (options.as) setToken(tokenOf(options.as));
  const router = createMemoryRouter(createRoutes(), { initialEntries: [path] });
  const user = userEvent.setup({ delay: null });
  const view = render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router, user };
}

/** Sets a field's value in one change event (much faster than typing character by character). */
export function fill(element: HTMLElement, value: string): void {
  fireEvent.change(element, { target: { value } });
}
