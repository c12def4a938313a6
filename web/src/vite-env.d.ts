/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_MOCK?: string;
  readonly VITE_API_BASE?: string;
  readonly VITE_PRIVACY_URL?: string;
  readonly VITE_ACCESSIBILITY_URL?: string;
  readonly VITE_TERMS_URL?: string;
  readonly VITE_COMPANY_NAME?: string;
  readonly VITE_COMPANY_ADDRESS?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
