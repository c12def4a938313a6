import { Outlet, ScrollRestoration } from 'react-router-dom';
import { LoaderOverlay } from '@/components/ui/loader-overlay';
import { PopupHost } from '@/components/ui/popup-host';

/** Above every layout: the shared popup and the loader overlay (spec §2.4, §8). */
export function RootLayout() {
  return (
    <>
      <Outlet />
      <PopupHost />
      <LoaderOverlay />
      <ScrollRestoration />
    </>
  );
}
