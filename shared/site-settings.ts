/**
 * The deployment's site settings: what the footer shows (spec §2.4). Written next to the SPA as
 * `config.json` by the CDK stack (context keys below) and served by the local server (environment
 * variables below), and read by the SPA at startup, so one build serves every stage (decision 094).
 */
export interface SiteSettings {
  companyName: string;
  companyAddress: string;
  privacyUrl: string;
  accessibilityUrl: string;
  termsUrl: string;
}

/** Where the SPA finds the settings (next to index.html). */
export const SITE_SETTINGS_PATH = '/config.json';

export const DEFAULT_SITE_SETTINGS: SiteSettings = {
  companyName: 'Firmware Release Portal',
  companyAddress: 'Headquarters: 100 Example Avenue, Springfield, 01101, USA',
  privacyUrl: 'https://www.example.com/privacy-statement',
  accessibilityUrl: 'https://www.example.com/accessibility-statement',
  termsUrl: 'https://www.example.com/terms-of-use',
};

/** Each setting: its CDK context key and its environment variable in the local stack. */
export const SITE_SETTING_SOURCES: Record<keyof SiteSettings, { context: string; env: string }> = {
  companyName: { context: 'companyName', env: 'COMPANY_NAME' },
  companyAddress: { context: 'companyAddress', env: 'COMPANY_ADDRESS' },
  privacyUrl: { context: 'privacyUrl', env: 'PRIVACY_URL' },
  accessibilityUrl: { context: 'accessibilityUrl', env: 'ACCESSIBILITY_URL' },
  termsUrl: { context: 'termsUrl', env: 'TERMS_URL' },
};

const URL_KEYS = ['privacyUrl', 'accessibilityUrl', 'termsUrl'] as const;
const MAX_TEXT = 300;

/**
 * Checks one set of settings, filling what is missing with the defaults. Returns the problems instead of
 * throwing so the synth can fail with all of them and the SPA can fall back to the defaults.
 */
export function checkSiteSettings(raw: unknown): { settings: SiteSettings; problems: string[] } {
  const problems: string[] = [];
  const input = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  if (!raw || typeof raw !== 'object') problems.push('site settings must be an object');
  const settings = { ...DEFAULT_SITE_SETTINGS };
  for (const key of Object.keys(DEFAULT_SITE_SETTINGS) as (keyof SiteSettings)[]) {
    const v = input[key];
    if (v === undefined || v === null || v === '') continue;
    if (typeof v !== 'string' || v.trim() === '' || v.length > MAX_TEXT) {
      problems.push(`${key} must be a text of 1 to ${MAX_TEXT} characters`);
      continue;
    }
    if ((URL_KEYS as readonly string[]).includes(key)) {
      let ok = false;
      try {
        ok = new URL(v).protocol === 'https:';
      } catch {
        ok = false;
      }
      if (!ok) {
        problems.push(`${key} must be an https:// URL, got '${v}'`);
        continue;
      }
    }
    settings[key] = v.trim();
  }
  return { settings, problems };
}
