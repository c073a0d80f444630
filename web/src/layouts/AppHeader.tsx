import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { loginLocation, registerLocation } from '../../../shared/access';
import type { NavigationNode } from '../../../shared/navigation';
import { searchState } from '../../../shared/page-data';
import { MessageLink } from '../features/message/MessageLink';
import { UserMenu, type UserMenuEntry } from '../features/session/UserMenu';
import { useSession } from '../features/session/use-session';
import { useDocumentCategories } from '../features/category/category-tree';
import { useNavigationTree } from '../features/navigation/use-navigation-tree';
import { SearchBox } from '../features/search/SearchBox';
import { newWordsAddress } from '../features/search/search-address';
import { useQueryValues } from '../kit/routing/query-values';
import { useRootHeight } from '../kit/visibility/use-root-height';
import { siteName, useSettings } from '../features/settings/use-settings';
import { uploadRightQuery } from '../features/upload/api';
import { MenuButton } from '../ui/MenuButton';
import { IconChevronDown } from '../ui/icons';

const isInternal = (href: string) => href.startsWith('/') && !href.startsWith('//');

function NavigationLink({ item, className }: { item: NavigationNode; className?: string }) {
  const href = item.href || '/';
  const style = item.color ? { color: item.color } : undefined;
  if (isInternal(href) && item.target !== '_blank') {
    return (
      <NavLink to={href} className={className} style={style} end={href === '/'}>
        {item.title}
      </NavLink>
    );
  }
  return (
    <a href={href} className={className} style={style} target={item.target || undefined} rel="noopener noreferrer">
      {item.title}
    </a>
  );
}

function NavigationItem({ item }: { item: NavigationNode }) {
  if (item.children.length === 0) return <NavigationLink item={item} className="app-header__nav-link" />;
  const entries = [item, ...item.children]
    .filter((entry) => (entry === item ? !!item.href : true))
    .map((entry) => {
      const href = entry.href || '/';
      const internal = isInternal(href) && entry.target !== '_blank';
      return {
        key: String(entry.id),
        label: entry.title,
        ...(internal ? { to: href } : { href, target: entry.target || undefined }),
      };
    });
  return (
    <MenuButton
      className="app-header__nav-menu"
      label={
        <>
          <span style={item.color ? { color: item.color } : undefined}>{item.title}</span>{' '}
          <IconChevronDown size="small" />
        </>
      }
      entries={entries}
    />
  );
}

const MEMBER_ENTRIES: readonly UserMenuEntry[] = [
  { label: '个人中心', to: '/member' },
  { label: '个人资料', to: '/member/profile' },
  { label: '我的文档', to: '/member/document' },
  { label: '我的文章', to: '/member/article' },
  { label: '我的收藏', to: '/member/favorite' },
  { label: '最近阅读', to: '/member/reading' },
  { label: '我的下载', to: '/member/download' },
  { label: '我的订单', to: '/member/order' },
  { label: '我的消息', to: '/member/message' },
];

/** 上传文档, for members whose upload right the server confirms. */
function UploadLink({ userId }: { userId: number }) {
  const right = useQuery(uploadRightQuery(userId));
  if (!right.data?.allowed) return null;
  return (
    <Link to="/upload" className="app-header__upload">
      上传文档
    </Link>
  );
}

/** Pages with a large search box of their own (the home page's, the results page's). */
const OWN_SEARCH_BOX = new Set(['/', '/search']);

/**
 * The header's search box; on the results page it shows that page's query. On a phone it
 * yields to the page's own box (two boxes, one above the other, on the first screen).
 */
function HeaderSearch() {
  const { pathname } = useLocation();
  const query = useQueryValues();
  const onResults = pathname === '/search';
  const initial = onResults ? (query.wd ?? '') : '';
  const yields = OWN_SEARCH_BOX.has(pathname);
  // On the results page, new words keep its filters as its own box does; elsewhere a plain search.
  const pathFor = onResults ? (wd: string) => newWordsAddress(searchState(query), wd) : undefined;
  return (
    <div className={`app-header__search${yields ? ' app-header__search--yields' : ''}`}>
      <SearchBox initial={initial} label="站内搜索" pathFor={pathFor} />
    </div>
  );
}

/**
 * Keeps `--app-sticky-header` (on the root) the height the header covers at the top of the
 * screen, for what sticks below it (the reader's toolbar): its height where it sticks, 0 where
 * layouts.css leaves it in the page's flow (a phone).
 */
function useStickyHeight() {
  return useRootHeight<HTMLElement>('--app-sticky-header', stickyHeight);
}

const stickyHeight = (header: HTMLElement) =>
  getComputedStyle(header).position === 'sticky' ? header.offsetHeight : 0;

/** A logo at least this many times as wide as it is high is a wordmark (the name drawn in). */
const WORDMARK_RATIO = 2;

/**
 * The header's link home: the logo and the site's name. A wordmark (the name drawn in) stands
 * alone, layouts.css hiding the name beside it (on a phone it was cut to its first character);
 * a square logo keeps the name. The link's name stays the site's name.
 */
function HeaderBrand({ name, logo }: { name: string; logo: string | undefined }) {
  // The logo whose drawn shape is wide (by its address, so a new logo starts as not wide).
  const [wordmark, setWordmark] = useState<string>();
  const wide = !!logo && wordmark === logo;
  return (
    <Link
      to="/"
      className={`app-header__brand${wide ? ' app-header__brand--wordmark' : ''}`}
      aria-label={`${name} 首页`}
    >
      {logo ? (
        <img
          src={logo}
          alt=""
          className="app-header__logo"
          onLoad={(event) => {
            const { naturalWidth, naturalHeight } = event.currentTarget;
            setWordmark(naturalWidth >= WORDMARK_RATIO * naturalHeight ? logo : undefined);
          }}
        />
      ) : null}
      <span className="app-header__sitename" title={name}>
        {name}
      </span>
    </Link>
  );
}

export function AppHeader() {
  const settings = useSettings();
  const navigation = useNavigationTree();
  const categories = useDocumentCategories();
  const { loggedIn, isAdmin, user } = useSession();
  const name = siteName(settings);
  const entries = isAdmin ? [...MEMBER_ENTRIES, { label: '管理后台', to: '/admin' }] : MEMBER_ENTRIES;
  const header = useStickyHeight();
  // Signing in or up from a page (a document deep in the library) comes back to it.
  const { pathname, search } = useLocation();

  return (
    <header className="app-header" ref={header}>
      <div className="app-header__bar app-container">
        <HeaderBrand name={name} logo={settings.system?.logo || undefined} />
        {/* Before the nav and the search box, where a phone draws it; wider, layouts.css draws it last. */}
        <div className="app-header__user">
          {loggedIn && user?.id ? <UploadLink userId={user.id} /> : null}
          {settings.vip?.enable && (
            <Link
              to="/vip"
              className={`app-header__vip${user?.is_vip ? ' app-header__vip--active' : ''}`}
              aria-label={user?.is_vip ? 'VIP 会员' : '开通会员'}
            >
              {/* 会员 alone on a phone, where the bar keeps one row (layouts.css); the name stays whole,
                  VIP spaced from 会员 (decision 068). */}
              <span className="app-header__vip-word">{user?.is_vip ? 'VIP ' : '开通'}</span>会员
            </Link>
          )}
          {loggedIn && user?.id ? <MessageLink userId={user.id} /> : null}
          {loggedIn ? (
            <UserMenu entries={entries} />
          ) : (
            <>
              <Link to={loginLocation(pathname + search)} className="app-header__login">
                登录
              </Link>
              {settings.security?.enable_register && (
                <Link to={registerLocation(pathname + search)} className="app-header__register">
                  注册
                </Link>
              )}
            </>
          )}
        </div>
        <nav className="app-header__nav" aria-label="网站导航">
          {navigation.map((item) => (
            <NavigationItem key={item.id} item={item} />
          ))}
        </nav>
        <HeaderSearch />
      </div>
      {categories.length > 0 && (
        <nav className="app-header__categories" aria-label="文档分类">
          <div className="app-container app-header__categories-inner">
            <NavLink to="/library" end className="app-header__category">
              全部文档
            </NavLink>
            {categories.map((category) => (
              <NavLink key={category.id} to={`/library/${category.id}`} className="app-header__category">
                {category.title}
              </NavLink>
            ))}
          </div>
        </nav>
      )}
    </header>
  );
}
