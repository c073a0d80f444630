// Two or three ways to do one thing on a screen (password or SMS login, e-mail or phone
// reset): a row of tabs (an ARIA tablist) above the form of the chosen way. Small enough to
// stay out of Semi's Tabs and its bundle. The keyboard moves as in any tablist (WAI-ARIA's tabs
// pattern), which a screen reader announces it as: one Tab stop, the chosen tab, and the arrows
// (Home, End) choosing another, the focus going with it.
import type { KeyboardEvent } from 'react';
import './tab-switch.css';

/** How far an arrow key moves along the row, or which end Home and End go to. */
const MOVES: Record<string, (at: number, count: number) => number> = {
  ArrowLeft: (at, count) => (at - 1 + count) % count,
  ArrowRight: (at, count) => (at + 1) % count,
  Home: () => 0,
  End: (_, count) => count - 1,
};

export interface TabChoice<K extends string> {
  key: K;
  label: string;
}

export function TabSwitch<K extends string>({
  label,
  tabs,
  active,
  onChange,
}: {
  /** What the tabs choose, for screen readers (e.g. 登录方式). */
  label: string;
  tabs: readonly TabChoice<K>[];
  active: K;
  onChange: (key: K) => void;
}) {
  // The chosen tab is the row's Tab stop (the first, should none be chosen).
  const at = Math.max(
    0,
    tabs.findIndex((tab) => tab.key === active),
  );
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const move = MOVES[event.key];
    if (!move || tabs.length === 0) return;
    event.preventDefault();
    const next = move(at, tabs.length);
    event.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]')[next]?.focus();
    const chosen = tabs[next];
    if (chosen && chosen.key !== active) onChange(chosen.key);
  };
  return (
    <div className="app-tab-switch" role="tablist" aria-label={label} onKeyDown={onKeyDown}>
      {tabs.map((tab, index) => (
        <button
          key={tab.key}
          type="button"
          role="tab"
          aria-selected={tab.key === active}
          tabIndex={index === at ? 0 : -1}
          className={tab.key === active ? 'app-tab-switch__tab app-tab-switch__tab--active' : 'app-tab-switch__tab'}
          onClick={() => onChange(tab.key)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
