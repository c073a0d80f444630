// The admin back office's screens, by route name (shared/routes.ts). Each is a lazy chunk.
// The router mounts them (with the dashboard, which the router names itself); the
// dashboard's shortcuts offer them.
import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router-dom';
import type { AdminRouteName, RouteName } from '../../../../shared/routes';

type Screen = Pick<RouteObject, 'lazy'>;

const lazyScreen = (load: () => Promise<ComponentType>): Screen => ({
  lazy: async () => ({ Component: await load() }),
});

const configScreen = lazyScreen(async () => (await import('./ConfigPage')).ConfigPage);

/** The admin routes whose screen the router names itself: the dashboard's. */
type DashboardRoute = 'admin' | 'admin-index' | 'admin-dashboard';

export const adminScreens: Readonly<Record<Exclude<AdminRouteName, DashboardRoute>, Screen>> = {
  'admin-user-list': lazyScreen(async () => (await import('./UserListPage')).UserListPage),
  'admin-user-group': lazyScreen(async () => (await import('./UserGroupPage')).UserGroupPage),
  'admin-user-permission': lazyScreen(async () => (await import('./PermissionPage')).PermissionPage),
  'admin-user-punishment': lazyScreen(async () => (await import('./PunishmentPage')).PunishmentPage),
  'admin-user-sms': lazyScreen(async () => (await import('./SmsLogPage')).SmsLogPage),
  'admin-navigation': lazyScreen(async () => (await import('./NavigationPage')).NavigationPage),
  'admin-document-category': lazyScreen(async () => (await import('./DocumentCategoryPage')).DocumentCategoryPage),
  'admin-article-category': lazyScreen(async () => (await import('./ArticleCategoryPage')).ArticleCategoryPage),
  'admin-friendlink': lazyScreen(async () => (await import('./FriendlinkPage')).FriendlinkPage),
  'admin-banner': lazyScreen(async () => (await import('./BannerPage')).BannerPage),
  'admin-advertisement': lazyScreen(async () => (await import('./AdvertisementPage')).AdvertisementPage),
  'admin-document-language': lazyScreen(async () => (await import('./LanguagePage')).LanguagePage),
  'admin-document-list': lazyScreen(async () => (await import('./DocumentListPage')).DocumentListPage),
  'admin-document-upload': lazyScreen(async () => (await import('./DocumentUploadPage')).DocumentUploadPage),
  'admin-document-recycle': lazyScreen(async () => (await import('./DocumentRecyclePage')).DocumentRecyclePage),
  'admin-document-searchrecord': lazyScreen(async () => (await import('./SearchRecordPage')).SearchRecordPage),
  'admin-attachment': lazyScreen(async () => (await import('./AttachmentPage')).AttachmentPage),
  'admin-article-list': lazyScreen(async () => (await import('./ArticleListPage')).ArticleListPage),
  'admin-article-set': lazyScreen(async () => (await import('./ArticleSetPage')).ArticleSetPage),
  'admin-article-recycle': lazyScreen(async () => (await import('./ArticleRecyclePage')).ArticleRecyclePage),
  'admin-comment': lazyScreen(async () => (await import('./CommentPage')).CommentPage),
  'admin-report': lazyScreen(async () => (await import('./ReportPage')).ReportPage),
  'admin-feedback': lazyScreen(async () => (await import('./FeedbackPage')).FeedbackPage),
  'admin-order': lazyScreen(async () => (await import('./OrderPage')).OrderPage),
  'admin-user-vip': lazyScreen(async () => (await import('./UserVipPage')).UserVipPage),
  'admin-config-system': configScreen,
  'admin-config-security': configScreen,
  'admin-config-footer': configScreen,
  'admin-config-display': configScreen,
  'admin-config-captcha': configScreen,
  'admin-config-email': configScreen,
  'admin-config-download': configScreen,
  'admin-config-converter': configScreen,
  'admin-config-score': configScreen,
  'admin-config-pay': configScreen,
  'admin-config-vip': configScreen,
  'admin-config-oauth': configScreen,
  'admin-config-sms': configScreen,
};

export const hasAdminScreen = (routeName: RouteName): boolean => routeName in adminScreens;
