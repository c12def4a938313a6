import { Flex, Heading } from '@aws-amplify/ui-react';
import type { FormEvent, ReactNode } from 'react';
import { FormAlert, LinkAndSubmit, type PrimaryAction } from '@/components/ui/form-parts';

/**
 * The card of a public account form (register, reset password): its title and intro, then the form's
 * fields, the alert of a failed call, and the row with the link (`footer.to`) and the submit button.
 */
export function AuthFormCard({
  title,
  intro,
  onSubmit,
  failure,
  footer,
  busy,
  children,
}: {
  title: string;
  intro?: ReactNode;
  onSubmit: (event: FormEvent) => void;
  failure: string | null | undefined;
  footer: { to: string; link: string; action: PrimaryAction };
  busy: boolean;
  children: ReactNode;
}) {
  return (
    <div className="frp-card frp-form-card">
      <Heading level={1} className="frp-page-title">
        {title}
      </Heading>
      {intro}
      <form onSubmit={onSubmit} noValidate>
        <Flex direction="column" gap="1rem">
          {children}
          <FormAlert message={failure} />
          <LinkAndSubmit {...footer} busy={busy} />
        </Flex>
      </form>
    </div>
  );
}
