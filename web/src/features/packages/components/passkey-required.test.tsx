import { PASSKEY_TEXT } from '@shared/domain/passkeys';
import { MSG } from '@shared/messages';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { memoryBackend, storedPackage } from '@/testing/backend/server';
import { atPath, openWith } from '../testing/package-test-utils';

/**
 * A stage that requires passkeys (decision 322), as the signer sees it: the real handlers over the memory
 * backend answer that this role signs only with a passkey. A signer without one is told so in the
 * signature dialog, with the way to add one, and is offered nothing that would sign without it.
 */
describe('a signer without a passkey on a stage that requires passkeys', () => {
  it('is told in the signature dialog how to add one, cannot sign, and the link opens Settings → Passkeys', async () => {
    memoryBackend().passkeys.webauthn.required = true;
    const { router } = openWith('/packages/header/view', { as: 'u-sw', pkg: 'pk-sign-rel', flow: 'sign' });
    await screen.findByRole('table', { name: 'Package header' });
    fireEvent.click(screen.getByRole('button', { name: MSG.sign }));
    const dialog = (await screen.findByRole('dialog')) as HTMLElement;

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('A passkey is required to sign');
    expect(alert).toHaveTextContent(PASSKEY_TEXT.requiredForSignature);
    // nothing in the dialog signs: no password field, no Sign button, no passkey button
    expect(within(dialog).queryByLabelText(/^Your password/)).toBeNull();
    expect(within(dialog).queryByRole('button', { name: /^Sign/ })).toBeNull();
    expect(within(dialog).getByRole('button', { name: MSG.cancel })).toBeEnabled();
    expect((await storedPackage('pk-sign-rel'))?.status).toBe('AWAITING_SIGNATURE');

    fireEvent.click(within(alert).getByRole('link', { name: 'Go to Settings → Passkeys' }));
    await atPath(router, '/user/settings');
    expect(router.state.location.search).toBe('?form=passkeys');
    const told = (await screen.findByText('Your role signs with a passkey')).closest('[role="status"]');
    expect(told).toHaveTextContent(PASSKEY_TEXT.requiredForSignature);
    expect(screen.getByRole('form', { name: 'Add a passkey' })).toBeInTheDocument();
  });

  it('on a stage without the rule, the same signer is offered the password', async () => {
    openWith('/packages/header/view', { as: 'u-sw', pkg: 'pk-sign-rel', flow: 'sign' });
    await screen.findByRole('table', { name: 'Package header' });
    fireEvent.click(screen.getByRole('button', { name: MSG.sign }));
    const dialog = (await screen.findByRole('dialog')) as HTMLElement;
    await waitFor(() => expect(within(dialog).getByLabelText(/^Your password/)).toBeEnabled());
    expect(within(dialog).queryByText(PASSKEY_TEXT.requiredForSignature)).toBeNull();
  });
});
