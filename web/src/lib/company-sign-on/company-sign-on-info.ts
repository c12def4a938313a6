import { useEffect, useState } from 'react';
import { callApi } from '@/lib/api-client/api-client';

/**
 * GET /company-sign-on: whether the stage names a company identity provider (decision 315), its name, and
 * whether it is the only way in; quiet. Here, not in a feature, because the login page and the signature
 * dialog of every screen both read it.
 */
export function companySignOnInfo() {
  return callApi('companySignOnInfo', {}, { loader: false, handle: 'all' });
}

/** The stage's company, read once per mount: its name, or null when there is none (undefined while loading). */
export function useCompanyName(): string | null | undefined {
  const [name, setName] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void companySignOnInfo().then((r) => {
      if (live) setName(r.ok && r.data.enabled && r.data.companyName ? r.data.companyName : null);
    });
    return () => {
      live = false;
    };
  }, []);
  return name;
}
