import { ThemeProvider } from '@aws-amplify/ui-react';
import type { ReactNode } from 'react';
import { theme } from './theme';

/** App-wide providers: our Amplify UI theme (no Authenticator: identity is the portal's own). */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={theme} colorMode="light">
      {children}
    </ThemeProvider>
  );
}
