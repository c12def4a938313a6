import { Alert, Button, Text } from '@aws-amplify/ui-react';
import { useEffect, useState } from 'react';
import { companySignOnInfo } from '@/lib/company-sign-on/company-sign-on-info';
import { rememberSignOn } from '@/lib/company-sign-on/pending-sign-on';
import { startCompanySignOn } from '../api/auth-api';

/**
 * "Sign in with <company>" under the spec's sign-in form, when the stage names a company identity provider
 * (decision 315). The backend starts the sign-in (state, nonce, PKCE stay on the server); this window keeps
 * the binding secret and goes to the provider's own page.
 */
export function CompanySignOnButton({ next }: { next: string | null }) {
  const [company, setCompany] = useState<{ name: string; only: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void companySignOnInfo().then((r) => {
      if (live && r.ok && r.data.enabled && r.data.companyName)
        setCompany({ name: r.data.companyName, only: r.data.companyOnly === true });
    });
    return () => {
      live = false;
    };
  }, []);

  if (!company) return null;
  const go = async () => {
    setBusy(true);
    setError(null);
    const r = await startCompanySignOn();
    if (!r.ok) {
      setBusy(false);
      setError(r.error.errorMessage);
      return;
    }
    rememberSignOn(r.data.authorizationUrl, { binding: r.data.binding, ...(next ? { next } : {}) });
    window.location.assign(r.data.authorizationUrl);
  };
  return (
    <section className="frp-card frp-form-card frp-company-sign-on" aria-label="Company sign-on">
      <p className="frp-company-sign-on__or">
        <span>or</span>
      </p>
      <Button
        variation="primary"
        isFullWidth
        onClick={() => void go()}
        isLoading={busy}
        loadingText="Opening…"
      >
        {`Sign in with ${company.name}`}
      </Button>
      <Text className="frp-company-sign-on__note">
        {company.only
          ? `This portal accepts only ${company.name} accounts; passwords are for the break-glass administrators.`
          : `Use your ${company.name} account. A first sign-in asks two administrators to grant your role.`}
      </Text>
      {error ? (
        <Alert variation="error" role="alert" marginTop="0.75rem">
          {error}
        </Alert>
      ) : null}
    </section>
  );
}
