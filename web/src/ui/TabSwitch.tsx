// Two or three ways to do one thing on a screen (password or SMS login, e-mail or phone
// reset): a row of tabs (an ARIA tablist) above the form of the chosen way. Small enough to
// stay out of Semi's Tabs and its bundle.
import './tab-switch.css';

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
  return (
    <div className="app-tab-switch" role="tablist" aria-label={label}>
      {tabs.map((tab) => (
        <button
          key={tab.key}
          type="button"
          role="tab"
          aria-selected={tab.key === active}
          className={tab.key === active ? 'app-tab-switch__tab app-tab-switch__tab--active' : 'app-tab-switch__tab'}
          onClick={() => onChange(tab.key)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
