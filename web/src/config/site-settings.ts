import {
  checkSiteSettings,
  DEFAULT_SITE_SETTINGS,
  SITE_SETTINGS_PATH,
  type SiteSettings,
} from '@shared/site-settings';
import { useSyncExternalStore } from 'react';
import { selectApprovalPolicy } from './approval-policy';

/**
 * The deployment's site settings (footer address and links), read at startup from config.json next to
 * the SPA, which the stack (or the local server) writes: one build serves every stage (decision 094).
 * Until it is read, or when it is missing or invalid (Vite's dev server, mock mode), the defaults apply.
 */
let current: SiteSettings = DEFAULT_SITE_SETTINGS;
const listeners = new Set<() => void>();

export function siteSettings(): SiteSettings {
  return current;
}

/** Fetches config.json once at startup; never throws (a missing file keeps the defaults). */
export async function loadSiteSettings(timeoutMs = 5000): Promise<SiteSettings> {
  try {
    const r = await fetch(new URL(SITE_SETTINGS_PATH, window.location.href), {
      headers: { Accept: 'application/json' },
      cache: 'no-cache',
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (r.ok && (r.headers.get('content-type') ?? '').includes('json')) {
      const raw = await r.json();
      // the approval policy the API runs rides along (decision 338): its turns are shown as it enforces them
      selectApprovalPolicy((raw as { approvalPolicy?: unknown } | null)?.approvalPolicy);
      const { settings, problems } = checkSiteSettings(raw);
      if (problems.length > 0) console.warn(`config.json: ${problems.join('; ')}`);
      setSiteSettings(settings);
    }
  } catch (e) {
    console.warn(`config.json could not be read (${(e as Error).message}); using the default site settings`);
  }
  return current;
}

export function setSiteSettings(next: SiteSettings): void {
  current = next;
  for (const l of listeners) l();
}

export function useSiteSettings(): SiteSettings {
  return useSyncExternalStore((l) => {
    listeners.add(l);
    return () => listeners.delete(l);
  }, siteSettings);
}
