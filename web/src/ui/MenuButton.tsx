// A small accessible menu button (disclosure + menu), used in the headers instead of Semi's
// Dropdown, which brings Tooltip and its positioning engine (~10 KiB gzip) to the first screen.
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import './menu-button.css';

export interface MenuEntry {
  key: string;
  label: ReactNode;
  /** An internal route. */
  to?: string;
  /** An outside link. */
  href?: string;
  target?: string;
  onSelect?: () => void;
  /** Draws a separator above this entry. */
  separated?: boolean;
}

export interface MenuButtonProps {
  label: ReactNode;
  entries: readonly MenuEntry[];
  /** Drawn above the entries when open (who is signed in); not an entry: the keyboard skips it. */
  heading?: ReactNode;
  /** Accessible name of the button when `label` is not plain text. */
  ariaLabel?: string;
  className?: string;
  align?: 'start' | 'end';
  testId?: string;
}

export function MenuButton({
  label,
  entries,
  heading,
  ariaLabel,
  className,
  align = 'start',
  testId,
}: MenuButtonProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return undefined;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    // Move focus into the menu so that keyboard users land on the first entry.
    root.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };

  const onMenuKey = (event: KeyboardEvent<HTMLUListElement>) => {
    const items = [...(root.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const index = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      items[(index + step + items.length) % items.length]?.focus();
    } else if (event.key === 'Tab') {
      // Closed from the button, which the Tab (or Shift+Tab) then leaves for the next (or the one
      // before): from the entry it was on, which the closing removes, Chromium went on from
      // elsewhere (at 390 px, back to 上传文档 before the user menu).
      close(true);
    }
  };

  const select = (entry: MenuEntry) => {
    close(false);
    entry.onSelect?.();
  };

  return (
    <div ref={root} className={`app-menu ${className ?? ''}`}>
      <button
        ref={button}
        type="button"
        className="app-menu__button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={ariaLabel}
        data-testid={testId}
        onClick={() => setOpen((o) => !o)}
      >
        {label}
      </button>
      {open && (
        <ul id={menuId} role="menu" className={`app-menu__list app-menu__list--${align}`} onKeyDown={onMenuKey}>
          {heading && (
            <li role="none" className="app-menu__heading">
              {heading}
            </li>
          )}
          {entries.map((entry) => (
            <li key={entry.key} role="none" className={entry.separated ? 'app-menu__separated' : undefined}>
              {entry.to ? (
                <Link role="menuitem" to={entry.to} className="app-menu__item" onClick={() => select(entry)}>
                  {entry.label}
                </Link>
              ) : entry.href ? (
                <a
                  role="menuitem"
                  href={entry.href}
                  target={entry.target}
                  rel="noopener noreferrer"
                  className="app-menu__item"
                  onClick={() => select(entry)}
                >
                  {entry.label}
                </a>
              ) : (
                <button type="button" role="menuitem" className="app-menu__item" onClick={() => select(entry)}>
                  {entry.label}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
