// The place of an advertisement slot (docs/product.md §9 ad slots): the live ads of the slot, each marked
// 广告 as the Advertising Law asks of online ads. An empty slot is an empty container that
// takes no room, so a page without ads keeps its layout, and the page's own data (inlined by
// the gateway) means the ads are there from the first paint instead of pushing content down.
import { useQuery } from '@tanstack/react-query';
import { isShowing, liveAdsQuery } from './api';
import './ad-slot.css';

/** The ads slot `slot` shows now: a page can tell a column that would hold nothing else. */
export function useSlotAds(slot: string) {
  const { data } = useQuery(liveAdsQuery());
  // The cached list may outlive an ad's end: the dates are checked again here.
  return (data ?? []).filter((ad) => ad.position === slot && isShowing(ad));
}

/** `className` places the slot (e.g. `app-container`); it applies only while the slot shows ads. */
export function AdSlot({ slot, className }: { slot: string; className?: string }) {
  const ads = useSlotAds(slot);
  return (
    <div className={className ? `app-ad-slot ${className}` : 'app-ad-slot'} data-ad-slot={slot}>
      {ads.map((ad) => (
        <aside key={ad.id} className="app-ad" aria-label={ad.title ? `广告：${ad.title}` : '广告'}>
          {/* The content is HTML the admin wrote, sanitised by the backend; the CSP runs no inline script either. */}
          <div className="app-ad__content" dangerouslySetInnerHTML={{ __html: ad.content ?? '' }} />
          <span className="app-ad__mark">广告</span>
        </aside>
      ))}
    </div>
  );
}
