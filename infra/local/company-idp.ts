import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { interactionPolicy } from 'oidc-provider';
import { companyLoginPage, companyMessagePage } from './company-idp-pages';
import { listenOn } from './ports';

/**
 * "The company": a certified OpenID provider (npm oidc-provider) that `npm start` runs on its own port, so
 * company sign-on works on a laptop and in the tests with no mock (decision 319). Its people are a JSON
 * file under the data folder (`company-idp/accounts.json`, seeded with one identity per situation and read
 * at every sign-in, so a test or a developer can disable someone or change an address and see the portal
 * react); its login page is a real form that checks the password. Keys, the cookie secret and the portal's
 * client secret are made on first start and kept beside it.
 */

/** One person of the company's directory. Local only: the password is kept as written. */
export interface CompanyAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
  password: string;
  /** IT disabled the account (a leaver): the provider signs nobody in with it */
  disabled?: boolean;
}

/** The local company's password of every seeded identity. */
export const COMPANY_PASSWORD = 'Company-Login-1234';
export const COMPANY_NAME = 'Example Medical Devices';
export const COMPANY_CLIENT_ID = 'firmware-release-portal';

/** One identity per situation (README, "Company sign-on"). */
export const SEED_COMPANY_ACCOUNTS: readonly CompanyAccount[] = [
  // a new employee: the first sign-in makes an account without a role
  {
    sub: 'emp-1001',
    email: 'nina.new@example.com',
    email_verified: true,
    name: 'Nina New',
    password: COMPANY_PASSWORD,
  },
  // an existing portal user (a seeded account): linked only with the portal password or by two admins
  {
    sub: 'emp-1002',
    email: 'technical-leader@example.com',
    email_verified: true,
    name: 'Terry Lead',
    password: COMPANY_PASSWORD,
  },
  // a leaver IT disabled: the provider refuses the sign-in
  {
    sub: 'emp-1003',
    email: 'lee.leaver@example.com',
    email_verified: true,
    name: 'Lee Leaver',
    password: COMPANY_PASSWORD,
    disabled: true,
  },
  // an address the company never verified: the portal refuses it
  {
    sub: 'emp-1004',
    email: 'uma.unverified@example.com',
    email_verified: false,
    name: 'Uma Unverified',
    password: COMPANY_PASSWORD,
  },
  // a contractor outside the stage's allowed domains: the portal refuses it
  {
    sub: 'ext-2001',
    email: 'oscar@outside-contractor.net',
    email_verified: true,
    name: 'Oscar Outside',
    password: COMPANY_PASSWORD,
  },
];

export interface CompanyIdpOptions {
  port: number;
  /** the folder of this provider's files (accounts, keys, secrets) */
  dir: string;
  /** the portal's redirect URIs (the SPA's /login/company page on each address the stack answers) */
  redirectUris: string[];
  /** shown on the login page */
  companyName?: string;
  /** the variable that sets `port`, named when the port is taken */
  portVariable?: string;
}

export interface CompanyIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accountsFile: string;
  stop(): Promise<void>;
}

/** The file's content, made on first start by `make`. */
function kept(file: string, make: () => string): string {
  if (!existsSync(file)) writeFileSync(file, make(), { mode: 0o600 });
  return readFileSync(file, 'utf8');
}

/** The directory as it is now: read at every sign-in. */
export function readCompanyAccounts(file: string): CompanyAccount[] {
  return JSON.parse(readFileSync(file, 'utf8')) as CompanyAccount[];
}

async function signingKeys(dir: string) {
  const file = resolve(dir, 'jwks.json');
  if (!existsSync(file)) {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: `local-${Date.now()}`, alg: 'RS256', use: 'sig' };
    writeFileSync(file, JSON.stringify({ keys: [jwk] }), { mode: 0o600 });
  }
  return JSON.parse(readFileSync(file, 'utf8')) as { keys: Record<string, unknown>[] };
}

const readForm = (req: IncomingMessage): Promise<URLSearchParams> =>
  new Promise((ok, fail) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
      if (body.length > 16_384) req.destroy(new Error('form too large'));
    });
    req.on('end', () => ok(new URLSearchParams(body)));
    req.on('error', fail);
  });

const html = (res: ServerResponse, status: number, page: string) => {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(page);
};

/** Starts the provider on 127.0.0.1:`port`; its issuer is http://localhost:`port`. */
export async function startCompanyIdp(opts: CompanyIdpOptions): Promise<CompanyIdp> {
  const dir = resolve(opts.dir);
  mkdirSync(dir, { recursive: true });
  const company = opts.companyName ?? COMPANY_NAME;
  const accountsFile = resolve(dir, 'accounts.json');
  kept(accountsFile, () => `${JSON.stringify(SEED_COMPANY_ACCOUNTS, null, 2)}\n`);
  const clientSecret = kept(resolve(dir, 'client-secret'), () =>
    randomBytes(32).toString('base64url'),
  ).trim();
  const cookieKey = kept(resolve(dir, 'cookie-key'), () => randomBytes(32).toString('base64url')).trim();
  const issuer = `http://localhost:${opts.port}`;
  const active = (sub: string) => readCompanyAccounts(accountsFile).find((a) => a.sub === sub && !a.disabled);

  // a session whose account IT disabled since asks for the login again, where the disabled account is refused
  const policy = interactionPolicy.base();
  policy
    .get('login')!
    .checks.add(
      new interactionPolicy.Check('account_disabled', 'the account of this session is disabled', (ctx) =>
        ctx.oidc.session?.accountId && !ctx.oidc.account
          ? interactionPolicy.Check.REQUEST_PROMPT
          : interactionPolicy.Check.NO_NEED_TO_PROMPT,
      ),
    );
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: COMPANY_CLIENT_ID,
        client_secret: clientSecret,
        redirect_uris: opts.redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    // every client must use PKCE with S256, as the portal does
    pkce: { required: () => true, methods: ['S256'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // the ID token of the code flow carries the email claims, as Entra ID and Google Workspace do
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { policy, url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: [cookieKey] },
    // seconds; a company's usual values (its provider's sessions last a working day)
    ttl: {
      AuthorizationCode: 60,
      IdToken: 3600,
      AccessToken: 3600,
      Interaction: 600,
      Grant: 8 * 3600,
      Session: 8 * 3600,
    },
    jwks: await signingKeys(dir),
    // a disabled account (a leaver) is no account: its session ends and nobody signs in with it
    findAccount: (_ctx, sub) => {
      const a = active(sub);
      if (!a) return undefined;
      return {
        accountId: a.sub,
        claims: () => ({ sub: a.sub, email: a.email, email_verified: a.email_verified, name: a.name }),
      };
    },
    // the portal is the company's own application: no consent screen, the grant is made at once
    loadExistingGrant: async (ctx) => {
      if (!ctx.oidc.account) return undefined;
      const id = ctx.oidc.result?.consent?.grantId || ctx.oidc.session?.grantIdFor(ctx.oidc.client!.clientId);
      if (id) return ctx.oidc.provider.Grant.find(id);
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = companyMessagePage(company, 'Sign-in error', `${out.error}: ${out.error_description ?? ''}`);
    },
  });
  // quiet: the provider's development warnings are about its in-memory storage, which is what we want here
  provider.on('server_error', (_ctx, e) => console.error(`company IdP: ${(e as Error).message}`));
  const oidcCallback = provider.callback();

  const interaction = async (req: IncomingMessage, res: ServerResponse, uid: string, action: string) => {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid)
      return html(res, 400, companyMessagePage(company, 'Sign-in error', 'This sign-in page expired.'));
    if (req.method === 'GET') return html(res, 200, companyLoginPage(company, uid, { email: '' }));
    const form = await readForm(req);
    if (action === 'abort')
      return provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The person cancelled the sign-in' },
        { mergeWithLastSubmission: false },
      );
    const email = (form.get('email') ?? '').trim().toLowerCase();
    const account = readCompanyAccounts(accountsFile).find((a) => a.email.toLowerCase() === email);
    if (!account || account.password !== (form.get('password') ?? ''))
      return html(
        res,
        200,
        companyLoginPage(company, uid, { email, error: 'The email or password is not right.' }),
      );
    if (account.disabled)
      return html(
        res,
        200,
        companyLoginPage(company, uid, { email, error: 'This account is disabled. Ask your IT department.' }),
      );
    return provider.interactionFinished(
      req,
      res,
      { login: { accountId: account.sub } },
      { mergeWithLastSubmission: false },
    );
  };

  const server: Server = createServer((req, res) => {
    const m = /^\/interaction\/([\w-]+)(?:\/(login|abort))?$/.exec((req.url ?? '').split('?')[0]!);
    if (!m) return void oidcCallback(req, res);
    interaction(req, res, m[1]!, m[2] ?? '').catch((e: Error) =>
      html(
        res,
        400,
        companyMessagePage(
          company,
          'Sign-in error',
          `This sign-in cannot go on (${e.message}). Start again from the portal.`,
        ),
      ),
    );
  });
  await listenOn(server, opts.port, opts.portVariable ?? 'IDP_PORT');
  return {
    issuer,
    clientId: COMPANY_CLIENT_ID,
    clientSecret,
    accountsFile,
    stop: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
