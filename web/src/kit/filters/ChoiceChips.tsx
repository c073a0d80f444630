// One row of filter choices as links ("格式：全部 PDF Word …"), so that the choice lives in
// the address like the rest of a list's state.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import './choice-chips.css';

export interface Choice {
  /** '' is the "all" choice. */
  value: string;
  label: string;
}

export function ChoiceChips({
  label,
  choices,
  current,
  hrefFor,
}: {
  label: string;
  choices: readonly Choice[];
  current: string;
  hrefFor: (value: string) => string;
}) {
  return (
    <FilterLine label={label}>
      {choices.map((choice) => (
        <Link
          key={choice.value}
          to={hrefFor(choice.value)}
          className={`app-chips__chip${choice.value === current ? ' app-chips__chip--active' : ''}`}
          aria-current={choice.value === current ? 'true' : undefined}
          ref={choice.value === current ? revealInRow : undefined}
        >
          {choice.label}
        </Link>
      ))}
    </FilterLine>
  );
}

/**
 * Scrolls a row of choices that is one scrolling line (a phone, choice-chips.css) so that its
 * chosen one shows: chosen past the screen's edge, it would come back hidden.
 */
function revealInRow(chip: HTMLElement | null): void {
  const row = chip?.parentElement;
  if (!chip || !row || row.scrollWidth <= row.clientWidth) return;
  const overflow = chip.getBoundingClientRect().right - row.getBoundingClientRect().right;
  if (overflow > 0) row.scrollLeft += overflow + 16;
}

/** A labelled line of a filter block; `htmlFor` when its content is a single input. */
export function FilterLine({ label, htmlFor, children }: { label: string; htmlFor?: string; children: ReactNode }) {
  return (
    <div className="app-chips" role={htmlFor ? undefined : 'group'} aria-label={htmlFor ? undefined : label}>
      {htmlFor ? (
        <label className="app-chips__label" htmlFor={htmlFor}>
          {label}
        </label>
      ) : (
        <span className="app-chips__label" aria-hidden="true">
          {label}
        </span>
      )}
      <ScrollingRow>{children}</ScrollingRow>
    </div>
  );
}

/**
 * The choices of a line; where they are one scrolling line (a phone) and more lie past the
 * right edge, the edge fades (`--more`) so that one sees there is more to swipe to.
 */
function ScrollingRow({ children }: { children: ReactNode }) {
  const row = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState(false);
  useEffect(() => {
    const element = row.current;
    if (!element) return undefined;
    const update = () => setMore(element.scrollLeft + element.clientWidth < element.scrollWidth - 1);
    update();
    element.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    return () => {
      element.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
    };
  }, [children]);
  return (
    <div ref={row} className={`app-chips__choices${more ? ' app-chips__choices--more' : ''}`}>
      {children}
    </div>
  );
}
