import { ja, jaMember } from '@enishi/contract';
import './banner-area.css';

export type Banner = { id: number; url: string; image: string };

/** The widths the server makes of a banner (server/src/lib/images.ts BANNER_WIDTHS), as WebP. */
const WIDTHS = [480, 800, 1200] as const;

/** `srcset` of a banner: its signed URL asks for a width with `&w=` (product.md §4). */
export const bannerSrcSet = (image: string) =>
  WIDTHS.map((width) => `${image}&w=${width} ${width}w`).join(', ');
/** As wide as the page's column: the screen less its margins on a phone, at most 40rem beside. */
export const BANNER_SIZES = '(min-width: 44rem) 40rem, calc(100vw - 2rem)';

/**
 * Starts loading the first banner as soon as the banners are known, before the home is drawn: the same
 * `srcset` and `sizes` as its image, so the browser picks the same file and the image finds it on its way. Only
 * where a preload takes a `srcset` (elsewhere a guess could fetch a second file); one preload, kept current.
 */
export function preloadFirstBanner(banner: Banner | undefined): void {
  if (!banner || !('imageSrcset' in HTMLLinkElement.prototype)) return;
  const link =
    document.head.querySelector<HTMLLinkElement>('link[as="image"]') ??
    Object.assign(document.createElement('link'), { rel: 'preload', as: 'image', fetchPriority: 'high' });
  link.imageSizes = BANNER_SIZES;
  link.imageSrcset = bannerSrcSet(banner.image);
  document.head.append(link);
}

/**
 * Ad banners below the members' menu: each an image linking to its url, opened in a new tab. The first is
 * often the largest thing on the screen: it loads at once and first (`fetchpriority`), the others when
 * scrolled near; width and height reserve each one's space before it arrives.
 */
export function BannerArea({ banners }: { banners: Banner[] }) {
  return (
    <section className="banner-area" aria-label={ja.home.banners}>
      {banners.length > 0 ? (
        <ul className="banner-area__list" role="list">
          {banners.map((banner, index) => (
            <li key={banner.id}>
              <a href={banner.url} target="_blank" rel="noopener noreferrer" className="banner-area__link">
                <img
                  src={`${banner.image}&w=800`}
                  srcSet={bannerSrcSet(banner.image)}
                  sizes={BANNER_SIZES}
                  alt={jaMember.banners.alt(index + 1)}
                  width={1200}
                  height={340}
                  {...(index === 0
                    ? { loading: 'eager', fetchPriority: 'high' }
                    : { loading: 'lazy', fetchPriority: 'auto' })}
                  decoding="async"
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
