import { BrandHero } from '@/components/ui/brand-hero';

/** Spec §2.2 home: the slogan and a large logo. */
export function HomePage() {
  return <BrandHero />;
}
