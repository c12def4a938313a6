import { MSG } from '@shared/messages';
import { render, screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { RouteError } from '@/components/layouts/route-error';
import { SESSION_KEY, session } from '@/lib/session/session-store';
import { getToken, setToken } from '@/lib/session/token-cookie';
import { server, tokenOf } from '@/testing/backend/server';
import { renderApp } from '@/testing/render-app';

const at = (router: ReturnType<typeof renderApp>['router'], path: string) =>
  waitFor(() => expect(router.state.location.pathname).toBe(path));

describe('redirects', () => {
  it.each(['/home', '/patches', '/upload', '/user/settings', '/packages/create', '/admin', '/admin/users'])(
    'sends an anonymous visitor from %s to /login',
    async (path) => {
      const { router } = renderApp(path);
      await at(router, '/login');
    },
  );

  it('sends a non-admin from /admin to /home', async () => {
    const { router } = renderApp('/admin/users', { as: 'u-lead' });
    await at(router, '/home');
    expect(await screen.findByText(MSG.slogan)).toBeInTheDocument();
  });

  it('sends a signed-in admin from the ordinary layout to /admin', async () => {
    const { router } = renderApp('/patches', { as: 'u-admin' });
    await at(router, '/admin');
    expect(await screen.findByRole('navigation', { name: 'Administration' })).toBeInTheDocument();
  });

  it('sends a signed-in user away from the reset-password page to /home', async () => {
    const { router } = renderApp('/user/reset-password', { as: 'u-dev' });
    await at(router, '/home');
  });

  it('shows the home page with the slogan for / and for unknown paths', async () => {
    renderApp('/no/such/page', { as: 'u-dev' });
    expect(await screen.findByText(MSG.slogan)).toBeInTheDocument();
  });

  it('shows the admin home page for unknown paths under /admin', async () => {
    const { router } = renderApp('/admin/whatever', { as: 'u-admin' });
    expect(await screen.findByText(MSG.slogan)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/whatever');
  });
});

describe('session', () => {
  it('restores the session from the token cookie via /user/auth at start', async () => {
    renderApp('/home', { as: 'u-test' });
    expect(await screen.findByText(MSG.slogan)).toBeInTheDocument();
    expect(session.get()).toMatchObject({
      isAuthenticated: true,
      admin: false,
      user: { name: 'Tess Tester' },
    });
  });

  it("sends the token in the /user/auth body as 'Bearer ' plus the cookie token (spec §7)", async () => {
    let sent: { body: unknown; authorization: string | null } | undefined;
    server.events.on('request:start', async ({ request }) => {
      if (new URL(request.url).pathname === '/dev/user/auth')
        sent = { body: await request.clone().json(), authorization: request.headers.get('Authorization') };
    });
    renderApp('/home', { as: 'u-test' });
    expect(await screen.findByText(MSG.slogan)).toBeInTheDocument();
    server.events.removeAllListeners();
    expect(sent?.body).toEqual({ token: `Bearer ${getToken()}` });
    expect(sent?.authorization).toBe(`Bearer ${getToken()}`);
  });

  it('keeps the client session state under one session-storage key', async () => {
    renderApp('/home', { as: 'u-test' });
    await screen.findByText(MSG.slogan);
    expect(Object.keys(sessionStorage)).toEqual([SESSION_KEY]);
    const stored = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? '{}');
    expect(Object.keys(stored).sort()).toEqual(
      [
        'admin',
        'currentPackage',
        'flowPurpose',
        'isAuthenticated',
        'mustChangePassword',
        'resource',
        'selectedTab',
        'subHeader',
        'user',
      ].sort(),
    );
    expect(stored.flowPurpose).toBe('dev');
  });

  it('removes a token the server no longer accepts and goes to /login without a popup', async () => {
    setToken('revoked-token');
    const { router } = renderApp('/home');
    await at(router, '/login');
    expect(getToken()).toBeNull();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('forgets a stored session when the cookie is gone', async () => {
    session.update({
      isAuthenticated: true,
      user: { id: 'x', name: 'Ghost', email: 'g@x.io', userRole: 'TECHNICAL_LEADER' },
    });
    const { router } = renderApp('/home');
    await at(router, '/login');
    expect(session.get().isAuthenticated).toBe(false);
  });

  it('sends the bearer token from the cookie on every call', async () => {
    let header: string | null = null;
    server.use(
      http.get('/dev/resources/patch/dev', ({ request }) => {
        header = request.headers.get('Authorization');
        return HttpResponse.json({ resources: '[]' });
      }),
    );
    renderApp('/patches', { as: 'u-dev' });
    await waitFor(() => expect(header).toBe(`Bearer ${tokenOf('u-dev')}`));
  });
});

describe('router fallback', () => {
  it("shows 'Unexpected Application Error!' with the message", async () => {
    const router = createMemoryRouter(
      [
        {
          path: '/',
          errorElement: <RouteError />,
          loader: () => {
            throw new Error('chunk failed to load');
          },
          element: <p>never</p>,
        },
      ],
      { initialEntries: ['/'] },
    );
    render(<RouterProvider router={router} />);
    expect(await screen.findByText(MSG.unexpectedAppError)).toBeInTheDocument();
    expect(screen.getByText('chunk failed to load')).toBeInTheDocument();
  });
});
