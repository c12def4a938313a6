/** The local company provider's pages: a plain, honest login form (no script, so no CSP to relax). */

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `
  body { margin: 0; font-family: system-ui, sans-serif; background: #eef2f6; color: #1b2733; }
  header { background: #123a5a; color: #fff; padding: 14px 24px; font-weight: 600; letter-spacing: .02em; }
  main { max-width: 380px; margin: 64px auto; background: #fff; border-radius: 8px; padding: 28px 32px;
         box-shadow: 0 2px 10px rgba(0,0,0,.08); }
  h1 { font-size: 1.35rem; margin: 0 0 4px; }
  p.sub { margin: 0 0 20px; color: #4a5a6a; font-size: .95rem; }
  label { display: block; font-size: .9rem; margin: 14px 0 4px; }
  input { width: 100%; box-sizing: border-box; padding: 9px 10px; font-size: 1rem; border: 1px solid #8a99a8; border-radius: 4px; }
  .error { background: #fdecea; color: #8a1c1c; border-radius: 4px; padding: 8px 10px; margin-top: 14px; font-size: .92rem; }
  .row { display: flex; justify-content: space-between; align-items: center; margin-top: 22px; }
  button { background: #123a5a; color: #fff; border: 0; border-radius: 4px; padding: 9px 18px; font-size: 1rem; cursor: pointer; }
  button.link { background: none; color: #123a5a; padding: 0; text-decoration: underline; }
  footer { text-align: center; color: #5b6b7b; font-size: .8rem; margin-top: 18px; }`;

function page(company: string, title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} – ${escapeHtml(company)}</title>
<style>${STYLE}</style></head><body><header>${escapeHtml(company)} · Identity</header><main>${body}</main>
<footer>Local identity provider of the development stack (oidc-provider)</footer></body></html>`;
}

/** The login form of one interaction. */
export function companyLoginPage(company: string, uid: string, v: { email: string; error?: string }): string {
  const u = encodeURIComponent(uid);
  return page(
    company,
    'Sign in',
    `<h1>Sign in</h1><p class="sub">with your ${escapeHtml(company)} account</p>
<form method="post" action="/interaction/${u}/login" autocomplete="off">
<label for="email">Work email</label><input id="email" name="email" type="email" required value="${escapeHtml(v.email)}" autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" required>
${v.error ? `<div class="error" role="alert">${escapeHtml(v.error)}</div>` : ''}
<div class="row"><button type="submit">Sign in</button></div></form>
<form method="post" action="/interaction/${u}/abort"><div class="row"><button class="link" type="submit">Cancel and go back</button></div></form>`,
  );
}

/** A page that only says something (an error of the provider). */
export function companyMessagePage(company: string, title: string, text: string): string {
  return page(company, title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`);
}
