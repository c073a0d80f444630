// `vip.benefits` (admin HTML) as a list of plain lines: no markup from the API reaches the DOM.
import { IconTickCircle } from '../../ui/icons';
import { plainParagraphs } from '../../ui/plain-text';
import './vip.css';

export function VipBenefits({ html }: { html: string | undefined }) {
  const lines = plainParagraphs(html);
  if (!lines.length) return <p className="app-vip-plan__description">暂无权益说明</p>;
  return (
    <ul className="app-vip-benefits">
      {lines.map((line) => (
        <li key={line}>
          <IconTickCircle aria-hidden />
          {line}
        </li>
      ))}
    </ul>
  );
}
