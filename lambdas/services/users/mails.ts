import { EMAIL_LINK_HOURS } from '../../../shared/domain/identity';
import { proposalExpiresAt, type RoleProposal } from '../../../shared/domain/role-grants';
import { roleLabel } from '../../../shared/domain/roles';
import type { Mail } from '../../ports/mailer';
import type { EmailToken, UserRecord } from '../../ports/user-repository';

/** Every mail the user use cases send, word for word, in one place. */

export function confirmationMail(
  user: UserRecord,
  to: string,
  link: string,
  purpose: EmailToken['purpose'],
): Mail {
  return {
    to,
    subject: 'Firmware Release Portal: confirm your email address',
    text: [
      `Hello ${user.name},`,
      '',
      purpose === 'REGISTER'
        ? 'Someone registered a Firmware Release Portal account with this address. To confirm it, open this link and enter the password chosen when registering:'
        : `Someone asked to change the sign-in address of the Firmware Release Portal account of ${user.name} to this one. Confirm it:`,
      link,
      '',
      purpose === 'REGISTER'
        ? `The link works once, for ${EMAIL_LINK_HOURS} hours. If you did not register, open it and choose "I did not register": the registration is cancelled (unconfirmed, it is forgotten after ${EMAIL_LINK_HOURS} hours anyway).`
        : `The link works once, for ${EMAIL_LINK_HOURS} hours. If you did not ask for this, ignore this mail, or open it and choose "I did not register" to cancel the change.`,
    ].join('\n'),
  };
}

export function temporaryPasswordMail(
  user: UserRecord,
  temp: string,
  tempPasswordMinutes: number,
  appUrl: string,
): Mail {
  return {
    to: user.email,
    subject: 'Firmware Release Portal: your temporary password',
    text: [
      `Hello ${user.name},`,
      '',
      'Someone asked for a new password for your Firmware Release Portal account.',
      `Temporary password: ${temp}`,
      '',
      `It works for ${tempPasswordMinutes} minutes. Your old password keeps working until one of the two is used;`,
      'if you did not ask for this, sign in with your old password and the temporary one stops working.',
      '',
      `Sign in: ${appUrl}/login`,
      'After signing in, choose a new password under Settings → Change password.',
    ].join('\n'),
  };
}

/** To one admin: `user` asks for the role they now hold as a request. */
export function roleRequestMail(admin: UserRecord, user: UserRecord, appUrl: string): Mail {
  return {
    to: admin.email,
    subject: `Role request: ${user.name} asks for ${roleLabel(user.userRole)}`,
    text: [
      `Hello ${admin.name},`,
      '',
      `${user.name} (${user.email}) asks for the role ${roleLabel(user.userRole)} in the Firmware Release Portal.`,
      'Until an administrator grants it, the account can sign in and see its own settings, nothing else.',
      '',
      `Grant or refuse it here: ${appUrl}/admin/users`,
    ].join('\n'),
  };
}

/** To the user: an administrator granted or refused their role. */
export function roleDecisionMail(user: UserRecord, grant: boolean, appUrl: string): Mail {
  const label = roleLabel(user.userRole);
  return {
    to: user.email,
    subject: `Firmware Release Portal: your role ${label} was ${grant ? 'granted' : 'refused'}`,
    text: [
      `Hello ${user.name},`,
      '',
      grant
        ? `An administrator granted your role ${label}. You can now act in that role.`
        : `An administrator refused your role ${label}. Your account can sign in and see its own settings, nothing else. Choose another role in Settings, or talk to an administrator.`,
      '',
      `Sign in: ${appUrl}/login`,
    ].join('\n'),
  };
}

/** To every admin: `proposer` proposed granting `user` their role; a second admin must confirm it. */
export function roleProposalMail(
  admin: UserRecord,
  user: UserRecord,
  proposer: UserRecord,
  proposal: RoleProposal,
  appUrl: string,
): Mail {
  const label = roleLabel(proposal.role);
  const own = admin.id === proposer.id;
  return {
    to: admin.email,
    subject: `Role proposal: ${proposer.name} proposes ${label} for ${user.name}`,
    text: [
      `Hello ${admin.name},`,
      '',
      `${proposer.name} (${proposer.email}) proposed granting ${user.name} (${user.email}) the role ${label} in the Firmware Release Portal.`,
      'It takes effect only once a second, different administrator confirms it by granting it too.',
      `The proposal lapses at ${proposalExpiresAt(proposal.proposedAt)} (UTC) unless confirmed.`,
      '',
      own
        ? 'You made this proposal: another administrator must confirm it. If you did not, refuse the role at once and change your password.'
        : `Confirm or refuse it here: ${appUrl}/admin/users`,
    ].join('\n'),
  };
}
