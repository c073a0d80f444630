// The admin back office's screens, by route name (shared/routes.ts). Each is a lazy chunk;
// admin routes not listed here still show 建设中 (see the README).
import type { RouteObject } from 'react-router-dom';

type Screen = Pick<RouteObject, 'lazy'>;

const configScreen: Screen = {
  lazy: async () => ({ Component: (await import('../pages/admin/ConfigPage')).ConfigPage }),
};

export const adminScreens: Readonly<Record<string, Screen>> = {
  'admin-user-list': { lazy: async () => ({ Component: (await import('../pages/admin/UserListPage')).UserListPage }) },
  'admin-user-group': { lazy: async () => ({ Component: (await import('../pages/admin/UserGroupPage')).UserGroupPage }) },
  'admin-user-permission': {
    lazy: async () => ({ Component: (await import('../pages/admin/PermissionPage')).PermissionPage }),
  },
  'admin-user-punishment': {
    lazy: async () => ({ Component: (await import('../pages/admin/PunishmentPage')).PunishmentPage }),
  },
  'admin-navigation': { lazy: async () => ({ Component: (await import('../pages/admin/NavigationPage')).NavigationPage }) },
  'admin-document-category': {
    lazy: async () => ({ Component: (await import('../pages/admin/DocumentCategoryPage')).DocumentCategoryPage }),
  },
  'admin-article-category': {
    lazy: async () => ({ Component: (await import('../pages/admin/ArticleCategoryPage')).ArticleCategoryPage }),
  },
  'admin-friendlink': { lazy: async () => ({ Component: (await import('../pages/admin/FriendlinkPage')).FriendlinkPage }) },
  'admin-banner': { lazy: async () => ({ Component: (await import('../pages/admin/BannerPage')).BannerPage }) },
  'admin-document-language': {
    lazy: async () => ({ Component: (await import('../pages/admin/LanguagePage')).LanguagePage }),
  },
  ...Object.fromEntries(
    ['system', 'security', 'footer', 'display', 'captcha', 'email', 'download', 'converter', 'pay', 'vip', 'oauth'].map((category) => [
      `admin-config-${category}`,
      configScreen,
    ]),
  ),
};
