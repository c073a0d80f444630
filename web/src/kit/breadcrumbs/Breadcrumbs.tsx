// Where a screen sits: 首页 / 文库资料 / 分类 …; the last crumb is the current page.
import { Fragment } from 'react';
import { Link } from 'react-router-dom';
import './breadcrumbs.css';

export interface Crumb {
  label: string;
  /** Absent for the current page. */
  to?: string;
}

export function Breadcrumbs({ crumbs }: { crumbs: readonly Crumb[] }) {
  return (
    <nav className="app-breadcrumbs" aria-label="当前位置">
      {crumbs.map((crumb, index) => (
        <Fragment key={`${index}-${crumb.label}`}>
          {index > 0 && <span aria-hidden="true">/</span>}
          {crumb.to ? <Link to={crumb.to}>{crumb.label}</Link> : <span aria-current="page">{crumb.label}</span>}
        </Fragment>
      ))}
    </nav>
  );
}
