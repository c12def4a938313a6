import '@aws-amplify/ui-react/styles.css';
import './app/styles.css';
import './app/role-status.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { AppProvider } from './app/provider';
import { createAppRouter } from './app/router';
import { loadSiteSettings } from './config/site-settings';

async function start() {
  // Spec §7 mock mode: fixed sample data answers the calls. Written out in full so a production build
  // drops this branch and MSW with it.
  if (import.meta.env.VITE_MOCK === 'true' || import.meta.env.MODE === 'mock') {
    const { startMockWorker } = await import('./testing/mocks/browser');
    await startMockWorker();
  }
  // the deployment's footer settings (config.json next to index.html); defaults when it is missing
  await loadSiteSettings();
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  createRoot(root).render(
    <StrictMode>
      <AppProvider>
        <RouterProvider router={createAppRouter()} />
      </AppProvider>
    </StrictMode>,
  );
}

void start();
