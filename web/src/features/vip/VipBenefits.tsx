// `vip.benefits`: rich text the admin writes with the articles' editor. The backend keeps it
// only through the rich-text allow-list (on save and again in the settings it serves), so it
// is shown as HTML like an article body; a list reads as tiles with a tick.
import './vip.css';

export function VipBenefits({ html }: { html: string | undefined }) {
  if (!html?.trim()) return <p className="app-vip-plan__description">暂无权益说明</p>;
  return <div className="app-vip-benefits" dangerouslySetInnerHTML={{ __html: html }} />;
}
