import type { ResponseOf } from '@shared/api/contract';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { paths } from '@/config/paths';
import { callApi } from '@/lib/api-client/api-client';
import { promptPasskey } from '@/lib/passkeys/passkey-browser';
import { safeNextPath } from '@/lib/session/guards';
import { parseUser } from '@/lib/session/parse-user';
import { signIn } from '@/lib/session/session-store';
import { setToken } from '@/lib/session/token-cookie';

/** What a sign-in answered: the spec's session, or the passkey step an account with a passkey owes. */
export type SignInAnswer = ResponseOf<'login'>;
type Session = Extract<SignInAnswer, { token: string }>;
type PasskeyStep = Extract<SignInAnswer, { secondFactor: unknown }>['secondFactor'];

/** POST /user/login/passkey: the ticket and the browser's assertion; 401 when refused (said on the form). */
function loginPasskey(ticket: string, response: unknown) {
  return callApi(
    'loginPasskey',
    { body: { ticket, response: response as never } },
    { handle: [400, 401, 429] },
  );
}

/**
 * The end of every sign-in (the password form, and the company sign-on's return): a session is stored and
 * the person goes where spec §4.7 sends them; a passkey step first asks the browser for the passkey
 * (decision 322). Answers null when signed in, or the sentence to show.
 */
export function useFinishSignIn() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();

  const enter = (data: Session, nextParam: string | null): string | null => {
    const user = parseUser(data.user);
    if (!user) return 'The server answered without a user; please try again.';
    setToken(data.token);
    signIn(user, data.mustChangePassword === true);
    // a one-time password (npm run admin:create) or a mailed temporary one: straight to the
    // password form, and nothing else until it is changed (the guards hold the user there)
    if (data.mustChangePassword) {
      const settings = user.userRole === 'ADMIN' ? paths.admin.settings : paths.settings;
      navigate(`${settings}?form=password&first=1`, { replace: true });
      return null;
    }
    // spec §4.7: admins to /admin, others to /home — or back to the page a mail link asked for
    const next = safeNextPath(nextParam);
    navigate(user.userRole === 'ADMIN' ? paths.admin.home : (next ?? paths.home), { replace: true });
    return null;
  };

  /** The passkey step: the browser's prompt, then the ticket and its answer. */
  const passkeyStep = async (step: PasskeyStep, nextParam: string | null): Promise<string | null> => {
    const answer = await promptPasskey(step.publicKey);
    if (!answer.ok) return answer.message;
    const r = await loginPasskey(step.ticket, answer.response);
    if (!r.ok) return r.error.errorMessage;
    return enter(r.data, nextParam);
  };

  /** `nextParam`: where to go after (a company sign-on keeps it across the provider); default ?next= */
  return async (
    data: SignInAnswer,
    nextParam: string | null = searchParams.get('next'),
  ): Promise<{ error: string | null; passkey?: PasskeyStep }> => {
    if ('secondFactor' in data)
      return { error: await passkeyStep(data.secondFactor, nextParam), passkey: data.secondFactor };
    return { error: enter(data, nextParam) };
  };
}
