import { detail, type Findings, type SubjectEvents } from './audit-completeness-core';
import type { ChainedEvent } from './audit-event';
import { removalExpiresAt } from './passkeys';

/**
 * The sign-in rules of the completeness check (docs/decisions/290-audit-completeness-rules.md): passkeys
 * (decisions 322–323) and company identities (decision 315). Their events are on the owner's `USER#<id>`,
 * like every account event; each rule compares one stored item or field with the events that made it.
 */

/** A stored passkey (`PASSKEY#<id>`), as far as the rules read it. */
export interface PasskeyState {
  id: string;
  userId: string;
  name: string;
  removalProposal?: { proposedById: string; proposedAt: string };
}

/** The link of a company identity (`IDP#<issuer>#<subject>`); kept after its account is deleted. */
export interface CompanyLinkState {
  issuer: string;
  subject: string;
  userId: string;
}

/** The sign-in fields of a stored user. */
export interface SignInFields {
  id: string;
  email: string;
  passkeyIds?: string[];
  companyIdentity?: { issuer: string; subject: string };
  companyLinkRequest?: { issuer: string; subject: string; proposal?: { byId: string } };
}

/** Events that link a company identity to the account: a first sign-in, the password, two admins. */
const LINKED = ['COMPANY_ACCOUNT_CREATED', 'COMPANY_IDENTITY_LINKED', 'COMPANY_LINK_CONFIRMED'];
const UNLINKED = 'COMPANY_IDENTITY_UNLINKED';
/** Events that end a link request: linked (by the password or two admins) or refused. */
const REQUEST_ENDS = ['COMPANY_LINK_REFUSED', 'COMPANY_IDENTITY_LINKED', 'COMPANY_LINK_CONFIRMED'];

const sameIdentity = (e: ChainedEvent, x: { issuer: string; subject: string }) =>
  detail(e, 'issuer') === x.issuer && detail(e, 'subject') === x.subject;
const named = (x: { issuer: string; subject: string }) => `${x.issuer} / ${x.subject}`;
const ofPasskey = (id: string) => (e: ChainedEvent) => detail(e, 'passkeyId') === id;

/** The account's passkeys: each held one added once and not removed; each removed one removed once. */
function checkPasskeys(
  f: Findings,
  subject: string,
  u: SignInFields,
  ev: SubjectEvents,
  stored: ReadonlyMap<string, PasskeyState>,
): void {
  const held = u.passkeyIds ?? [];
  for (const id of held) {
    const p = stored.get(id);
    const what = `the account holds the passkey ${id}${p ? ` ('${p.name}')` : ''}`;
    if (!p || p.userId !== u.id)
      f.add(subject, 'mismatch', `${what}, but no passkey item ${id} of this account is stored`);
    f.exactly(subject, 'PASSKEY_ADDED', ev.count('PASSKEY_ADDED', ofPasskey(id)), 1, what);
    f.exactly(subject, 'PASSKEY_REMOVED', ev.count('PASSKEY_REMOVED', ofPasskey(id)), 0, what);
    const proposals = ev.of('PASSKEY_REMOVAL_PROPOSED').filter(ofPasskey(id));
    const r = p?.removalProposal;
    if (r) {
      const expiresAt = removalExpiresAt(r.proposedAt);
      const matching = proposals.filter(
        (e) => e.actorId === r.proposedById && detail(e, 'expiresAt') === expiresAt,
      );
      f.exactly(
        subject,
        'PASSKEY_REMOVAL_PROPOSED',
        matching.length,
        1,
        `${r.proposedById} proposed removing the passkey ${id} at ${r.proposedAt}`,
      );
    } else if (proposals.length > 0)
      f.add(
        subject,
        'extra',
        `the record proposes removing the passkey ${id} (seq ${proposals.at(-1)!.seq}), but the passkey carries no proposal`,
      );
  }
  const added = new Set(ev.of('PASSKEY_ADDED').map((e) => detail(e, 'passkeyId') ?? ''));
  for (const id of [...added].filter((x) => x && !held.includes(x)))
    f.exactly(
      subject,
      'PASSKEY_REMOVED',
      ev.count('PASSKEY_REMOVED', ofPasskey(id)),
      1,
      `the record added the passkey ${id}, which the account no longer holds`,
    );
}

/** The company identity the account holds (or not) against the link events since the last unlink. */
function checkCompanyIdentity(
  f: Findings,
  subject: string,
  u: SignInFields,
  ev: SubjectEvents,
  links: ReadonlyMap<string, CompanyLinkState>,
): void {
  const since = ev.after(UNLINKED).filter((e) => LINKED.includes(e.action));
  const id = u.companyIdentity;
  if (id) {
    const link = links.get(`${id.issuer}#${id.subject}`);
    if (!link || link.userId !== u.id)
      f.add(
        subject,
        'mismatch',
        `the account holds the company identity ${named(id)}, but its link item ${link ? `names the account ${link.userId}` : 'is not stored'}`,
      );
    f.exactly(
      subject,
      'COMPANY_IDENTITY_LINKED (or COMPANY_LINK_CONFIRMED, COMPANY_ACCOUNT_CREATED)',
      since.filter((e) => sameIdentity(e, id)).length,
      1,
      `the account is linked to the company identity ${named(id)}`,
    );
  }
  for (const e of since.filter((x) => !id || !sameIdentity(x, id)))
    f.add(
      subject,
      'extra',
      `the record links the company identity ${detail(e, 'issuer')} / ${detail(e, 'subject')} (${e.action}, seq ${e.seq}) with no unlink since, but the account holds ${id ? named(id) : 'none'}`,
    );
}

/** A link request waiting for two admins: requested since the last decision, proposed by the proposer. */
function checkLinkRequest(f: Findings, subject: string, u: SignInFields, ev: SubjectEvents): void {
  const last = ev.of('COMPANY_LINK_REQUESTED', ...REQUEST_ENDS).at(-1);
  const r = u.companyLinkRequest;
  if (!r) {
    if (last?.action === 'COMPANY_LINK_REQUESTED')
      f.add(
        subject,
        'extra',
        `the record's last company link request (seq ${last.seq}) waits for a decision, but the account has no request`,
      );
    return;
  }
  if (last?.action !== 'COMPANY_LINK_REQUESTED' || !sameIdentity(last, r)) {
    f.add(
      subject,
      'missing',
      `the account asks to link the company identity ${named(r)}, but the record has no COMPANY_LINK_REQUESTED for it since the last decision`,
    );
    return;
  }
  const proposals = ev.after('COMPANY_LINK_REQUESTED').filter((e) => e.action === 'COMPANY_LINK_PROPOSED');
  if (r.proposal)
    f.exactly(
      subject,
      'COMPANY_LINK_PROPOSED',
      proposals.filter((e) => e.actorId === r.proposal!.byId).length,
      1,
      `${r.proposal.byId} proposed linking the company identity ${named(r)}`,
    );
  else
    f.exactly(subject, 'COMPANY_LINK_PROPOSED', proposals.length, 0, 'the link request carries no proposal');
}

/** Every sign-in rule of one stored user. */
export function checkSignIn(
  f: Findings,
  u: SignInFields,
  passkeys: ReadonlyMap<string, PasskeyState>,
  links: ReadonlyMap<string, CompanyLinkState>,
): void {
  const subject = `USER#${u.id}`;
  const ev = f.events(subject);
  checkPasskeys(f, subject, u, ev, passkeys);
  checkCompanyIdentity(f, subject, u, ev, links);
  checkLinkRequest(f, subject, u, ev);
}

/**
 * Items that name an existing account which does not list them: a passkey not in its `passkeyIds`, a link
 * whose account holds another identity (a deleted account's items stay and are not checked).
 */
export function checkSignInItems(
  f: Findings,
  users: ReadonlyMap<string, SignInFields>,
  passkeys: readonly PasskeyState[],
  links: readonly CompanyLinkState[],
): void {
  for (const p of passkeys) {
    const u = users.get(p.userId);
    if (u && !(u.passkeyIds ?? []).includes(p.id))
      f.add(
        `USER#${p.userId}`,
        'mismatch',
        `the passkey item ${p.id} ('${p.name}') names the account ${u.email}, which does not hold it`,
      );
  }
  for (const l of links) {
    const u = users.get(l.userId);
    const held = u?.companyIdentity;
    if (u && !(held && held.issuer === l.issuer && held.subject === l.subject))
      f.add(
        `USER#${l.userId}`,
        'mismatch',
        `the link item of the company identity ${named(l)} names the account ${u.email}, which holds ${held ? named(held) : 'none'}`,
      );
  }
}
