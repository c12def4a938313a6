import { type FormEvent, useState } from 'react';

/**
 * The state and submit of a form that sends one email address (reset password, a new confirmation
 * link): a second submit while the call runs does nothing, an address `invalid` refuses shows its text
 * and calls nothing, else `send` gets the trimmed address and `done` its answer.
 */
export function useEmailForm<R>({
  invalid,
  send,
  done,
}: {
  invalid: (email: string) => string | null;
  send: (email: string) => Promise<R>;
  done: (answer: R, setError: (error: string | null) => void) => void;
}) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const refused = invalid(email);
    if (refused) {
      setError(refused);
      return;
    }
    setBusy(true);
    const answer = await send(email.trim());
    setBusy(false);
    done(answer, setError);
  };

  return { email, setEmail, error, setError, busy, submit };
}
