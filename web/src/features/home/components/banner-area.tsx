import { ja, jaMember } from '@enishi/contract';
import './banner-area.css';

export type Banner = { id: number; url: string; image: string };

/** Ad banners below the members' menu: each an image linking to its url, opened in a new tab. */
export function BannerArea({ banners }: { banners: Banner[] }) {
  return (
    <section className="banner-area" aria-label={ja.home.banners}>
      {banners.length > 0 ? (
        <ul className="banner-area__list" role="list">
          {banners.map((banner, index) => (
            <li key={banner.id}>
              <a href={banner.url} target="_blank" rel="noopener noreferrer" className="banner-area__link">
                <img
                  src={banner.image}
                  alt={jaMember.banners.alt(index + 1)}
                  width={1200}
                  height={340}
                  loading="lazy"
                />
                <span className="visually-hidden">{jaMember.banners.newTab}</span>
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
