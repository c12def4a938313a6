import { expect, signIn, test } from './support';

test.describe('who reaches which screens', () => {
  test('an anonymous visitor is sent to the login page', async ({ page, a11y }) => {
    await page.goto('/packages');
    // the login page remembers where the visitor was going
    await expect(page).toHaveURL(/\/login\?next=%2Fpackages$/);
    await expect(page.getByRole('button', { name: 'Submit' })).toBeVisible();
    await a11y(page, '/login');
    await page.goto('/admin/users');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a non-admin typing /admin is sent to /home', async ({ page, a11y }) => {
    await signIn(page, 'technical-leader@example.com');
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByText('Inspiring the extraordinary')).toBeVisible();
    await a11y(page, '/home');
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/home$/);
  });

  test('an admin signing in lands on the admin home and is kept out of the ordinary layout', async ({
    page,
    a11y,
  }) => {
    await signIn(page, 'admin@example.com');
    await expect(page).toHaveURL(/\/admin$/);
    await a11y(page, '/admin');
    await page.goto('/packages');
    await expect(page).toHaveURL(/\/admin$/);
  });
});
