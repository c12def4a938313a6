import { MSG } from '@shared/messages';
import { Logo } from './logo';

/** The home pages (spec §2.2): the slogan and a large logo. */
export function BrandHero() {
  return (
    <section className="frp-hero" aria-labelledby="frp-slogan">
      <Logo size={160} tone="dark" title="Firmware Release Portal" />
      <h1 id="frp-slogan" className="frp-hero__slogan">
        {MSG.slogan}
      </h1>
    </section>
  );
}
