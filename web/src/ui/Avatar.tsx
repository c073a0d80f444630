// A round avatar: the picture, or the first letter of the name on a colour.
import './avatar.css';

const SIZES = { small: 28, default: 40, large: 64 } as const;

export function Avatar({ src, name, size = 'small' }: { src?: string; name: string; size?: keyof typeof SIZES }) {
  const px = SIZES[size];
  if (src) return <img className="app-avatar" src={src} alt={name} width={px} height={px} />;
  return (
    <span className="app-avatar app-avatar--letter" style={{ width: px, height: px, fontSize: px * 0.45 }} aria-label={name} role="img">
      {name.slice(0, 1).toUpperCase() || '?'}
    </span>
  );
}
