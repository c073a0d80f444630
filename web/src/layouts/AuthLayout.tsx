import { Suspense } from 'react';
import { Link, Outlet } from 'react-router-dom';
import { useCurrentRoute } from '../kit/routing/current-route';
import { copyrightYears } from '../../../shared/site-footer';
import { siteName, useSettings } from '../features/settings/use-settings';
import { PageLoading } from '../ui/PageLoading';
import './auth-layout.css';

const CURRENT_YEAR = new Date().getFullYear();

/** The auth layout: the site's brand and one centred card on the configured background. */
export function AuthLayout() {
  const settings = useSettings();
  const route = useCurrentRoute();
  const system = settings.system ?? {};
  const background = route?.name === 'auth-register' ? system.register_background : system.login_background;
  const name = siteName(settings);
  return (
    <div
      className="app-auth-layout"
      style={background ? { backgroundImage: `url("${encodeURI(background)}")` } : undefined}
    >
      <div className="app-auth-layout__card">
        <header>
          <Link to="/" className="app-auth-layout__brand">
            {system.logo ? <img src={system.logo} alt="" className="app-auth-layout__logo" /> : null}
            <span>{name}</span>
          </Link>
        </header>
        <main tabIndex={-1}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
      <footer>
        <p className="app-auth-layout__footer">
          © {copyrightYears(system.copyright_start_year, CURRENT_YEAR)} {name}
        </p>
      </footer>
    </div>
  );
}
