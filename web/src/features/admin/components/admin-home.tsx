import { BrandHero } from '@/components/ui/brand-hero';

/** Spec §2.3 admin home page (also shown for unknown paths under /admin). */
export function AdminHome() {
  return <BrandHero />;
}
