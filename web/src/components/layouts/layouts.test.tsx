import { MSG } from '@shared/messages';
import { DEFAULT_SITE_SETTINGS } from '@shared/site-settings';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSiteSettings, setSiteSettings, siteSettings } from '@/config/site-settings';
import { session } from '@/lib/session/session-store';
import { getToken } from '@/lib/session/token-cookie';
import { server } from '@/testing/backend/server';
import { renderApp } from '@/testing/render-app';

const mainNav = () => screen.findByRole('navigation', { name: 'Main' });
const navLabels = async () =>
  within(await mainNav())
    .getAllByRole('link')
    .map((a) => a.textContent);

describe('navigation by role', () => {
  it.each([
    ['Design Engineer (dev)', 'u-dev'],
    ['Design Engineer (test)', 'u-test'],
  ])('shows UPLOAD to a %s', async (_label, id) => {
    renderApp('/home', { as: id });
    expect(await navLabels()).toEqual(['PACKAGES', 'PATCHES', 'MODELS', 'APPROVAL', 'SIGNING', 'UPLOAD']);
  });

  it.each([
    ['Reliability Engineer', 'u-rel'],
    ['SW/FW Release Engineer', 'u-sw'],
    ['Technical Leader', 'u-lead'],
  ])('hides UPLOAD from a %s', async (_label, id) => {
    renderApp('/home', { as: id });
    expect(await navLabels()).toEqual(['PACKAGES', 'PATCHES', 'MODELS', 'APPROVAL', 'SIGNING']);
  });

  it('lets any signed-in user reach /upload by route', async () => {
    renderApp('/upload', { as: 'u-lead' });
    expect(await screen.findByRole('heading', { name: MSG.uploadPatchHeading })).toBeInTheDocument();
  });

  it('shows PACKAGES, DCC, USERS and RESOURCES in the admin layout, then our AUDIT entry', async () => {
    renderApp('/admin', { as: 'u-admin' });
    const nav = await screen.findByRole('navigation', { name: 'Administration' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
      // the spec's four, in its order; the audit trail screen (decision 346) comes after them
    ).toEqual(['PACKAGES', 'DCC', 'USERS', 'RESOURCES', 'AUDIT']);
  });

  it('shows no navigation bar to visitors', async () => {
    renderApp('/login');
    await screen.findByRole('button', { name: MSG.submit });
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
  });
});

describe('selected tab', () => {
  it('underlines the tab of the open list and clears it on /home', async () => {
    const { user } = renderApp('/patches', { as: 'u-dev' });
    const nav = await mainNav();
    await waitFor(() =>
      expect(within(nav).getByRole('link', { name: 'PATCHES' })).toHaveAttribute('aria-current', 'page'),
    );
    expect(session.get().selectedTab).toBe('patches');
    await user.click(screen.getByRole('link', { name: /home/i }));
    await waitFor(() => expect(session.get().selectedTab).toBeNull());
    expect(within(nav).queryByRole('link', { current: 'page' })).not.toBeInTheDocument();
  });

  it('clears the selected tab on /user/settings', async () => {
    session.update({ selectedTab: 'models' });
    renderApp('/user/settings', { as: 'u-dev' });
    await screen.findByRole('heading', { name: MSG.settings });
    await waitFor(() => expect(session.get().selectedTab).toBeNull());
  });

  it('keeps the tab on pages inside a flow', async () => {
    session.update({ selectedTab: 'models' });
    renderApp('/packages/create', { as: 'u-dev' });
    await screen.findByRole('heading', { name: MSG.generateDevPackageTitle });
    const nav = await mainNav();
    expect(within(nav).getByRole('link', { name: 'MODELS' })).toHaveAttribute('aria-current', 'page');
  });
});

describe('header and footer', () => {
  it("shows the user's initials in the avatar and a logo linking to /home", async () => {
    renderApp('/home', { as: 'u-rel' });
    expect(await screen.findByTestId('avatar-initials')).toHaveTextContent('RR');
    expect(screen.getByRole('link', { name: /Firmware Release Portal, home/ })).toHaveAttribute(
      'href',
      '/home',
    );
  });

  it("shows the user's name and role at the top of the avatar menu", async () => {
    const { user } = renderApp('/home', { as: 'u-sw' });
    await user.click(await screen.findByRole('button', { name: /Account menu of Sam Release/ }));
    const who = await screen.findByTestId('user-menu-who');
    expect(who).toHaveTextContent('Signed in as');
    expect(who).toHaveTextContent('Sam Release');
    expect(who).toHaveTextContent('SW/FW Release Engineer');
    // Settings and Log Out stay the menu's items (spec §2.4)
    expect((await screen.findAllByRole('menuitem')).map((i) => i.textContent)).toEqual([
      MSG.settings,
      MSG.logOut,
    ]);
  });

  it('opens Settings from the avatar menu', async () => {
    const { user, router } = renderApp('/home', { as: 'u-dev' });
    await user.click(await screen.findByRole('button', { name: /Account menu of Dana Dev/ }));
    await user.click(await screen.findByRole('menuitem', { name: MSG.settings }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/settings'));
  });

  it('logs out: calls the server, clears the session and the cookie, and goes to /login', async () => {
    let called = false;
    server.use(
      http.post('/dev/user/logout', () => {
        called = true;
        return HttpResponse.json({ status: 'SIGNED_OUT' });
      }),
    );
    const { user, router } = renderApp('/home', { as: 'u-dev' });
    await user.click(await screen.findByRole('button', { name: /Account menu/ }));
    await user.click(await screen.findByRole('menuitem', { name: MSG.logOut }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(called).toBe(true);
    expect(getToken()).toBeNull();
    expect(session.get()).toMatchObject({
      isAuthenticated: false,
      user: null,
      admin: false,
      currentPackage: null,
    });
  });

  it('logs out on the client even when the server call fails', async () => {
    server.use(
      http.post('/dev/user/logout', () => HttpResponse.json({ errorMessage: 'down' }, { status: 503 })),
    );
    const { user, router } = renderApp('/home', { as: 'u-dev' });
    await user.click(await screen.findByRole('button', { name: /Account menu/ }));
    await user.click(await screen.findByRole('menuitem', { name: MSG.logOut }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(getToken()).toBeNull();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('offers Settings (the admin settings page) and Log Out in the admin avatar menu', async () => {
    const { user, router } = renderApp('/admin', { as: 'u-admin' });
    await user.click(await screen.findByRole('button', { name: /Account menu of Ada Admin/ }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual([MSG.settings, MSG.logOut]);
    await user.click(items[0]!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/settings'));
    // an admin edits their name and email; the role is shown, not offered
    expect(await screen.findByLabelText('User role')).toHaveAttribute('readonly');
  });

  it('shows privacy, accessibility and terms links, an address and © 2024 in the footer', async () => {
    renderApp('/login');
    const footer = await screen.findByRole('contentinfo');
    const legal = within(footer).getByRole('navigation', { name: 'Legal' });
    expect(
      within(legal)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Privacy statement', 'Accessibility statement', 'Terms of use']);
    expect(footer.querySelector('address')).toHaveTextContent(/Headquarters/);
    expect(footer).toHaveTextContent('© 2024');
  });

  describe('footer settings from config.json (one build serves every stage)', () => {
    afterEach(() => setSiteSettings(DEFAULT_SITE_SETTINGS));
    const ACME = {
      companyName: 'Acme Medical Devices',
      companyAddress: 'Acme HQ, 1 Main Street, Basel',
      privacyUrl: 'https://acme.example/privacy',
      accessibilityUrl: 'https://acme.example/accessibility',
      termsUrl: 'https://acme.example/terms',
    };

    it('shows the address, name and links of the deployment read at startup', async () => {
      server.use(http.get('/config.json', () => HttpResponse.json(ACME)));
      await loadSiteSettings();
      renderApp('/login');
      const footer = await screen.findByRole('contentinfo');
      expect(footer.querySelector('address')).toHaveTextContent(ACME.companyAddress);
      expect(footer).toHaveTextContent('© 2024 Acme Medical Devices. All rights reserved.');
      const hrefs = within(within(footer).getByRole('navigation', { name: 'Legal' }))
        .getAllByRole('link')
        .map((a) => a.getAttribute('href'));
      expect(hrefs).toEqual([ACME.privacyUrl, ACME.accessibilityUrl, ACME.termsUrl]);
    });

    it('keeps the defaults when config.json is missing, and drops a setting that is not https', async () => {
      server.use(http.get('/config.json', () => new HttpResponse('not found', { status: 404 })));
      await loadSiteSettings();
      expect(siteSettings()).toEqual(DEFAULT_SITE_SETTINGS);
      server.use(
        http.get('/config.json', () => HttpResponse.json({ ...ACME, privacyUrl: 'javascript:alert(1)' })),
      );
      await loadSiteSettings();
      expect(siteSettings()).toEqual({ ...ACME, privacyUrl: DEFAULT_SITE_SETTINGS.privacyUrl });
    });
  });
});
