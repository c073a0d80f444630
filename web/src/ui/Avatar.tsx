// A round avatar: the picture, or the first letter of the name on a colour.
import './avatar.css';

const SIZES = { small: 28, default: 40, large: 64 } as const;

/**
 * `decorative`: beside the name it shows (a menu's label), hidden from assistive technology.
 * The letter is drawn by CSS (`data-letter`), not text: a label holding the name then matches
 * what is shown (a button reading `Q qa39` named `用户菜单 qa39` would not).
 */
export function Avatar({
  src,
  name,
  size = 'small',
  decorative = false,
}: {
  src?: string;
  name: string;
  size?: keyof typeof SIZES;
  decorative?: boolean;
}) {
  const px = SIZES[size];
  if (src) return <img className="app-avatar" src={src} alt={decorative ? '' : name} width={px} height={px} />;
  const named = decorative ? { 'aria-hidden': true } : { 'aria-label': name, role: 'img' };
  return (
    <span
      className="app-avatar app-avatar--letter"
      style={{ width: px, height: px, fontSize: px * 0.45 }}
      data-letter={name.slice(0, 1).toUpperCase() || '?'}
      {...named}
    />
  );
}
