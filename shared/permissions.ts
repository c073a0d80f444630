// Permission groups → admin pages (docs/product.md §3, §4; docs/moredoc.md §11).
// A permission row is `GRPC /api.v1.<Service>/<Rpc>` or `POST /api/v1/upload/<kind>`; the
// rows of one service form a group, and holding the group's list permission unlocks its pages.
import type { Permission } from './types/permission';

export const UPLOAD_GROUP_KEY = 'upload';

/** User id 1 (the seeded `admin`) passes every permission check (docs/moredoc.md §11). */
export const SUPER_USER_ID = 1;

/** The permission path of an RPC: `grpcPermissionPath('UserAPI', 'AddUser')` → `/api.v1.UserAPI/AddUser`. */
export const grpcPermissionPath = (service: string, rpc: string) => `/api.v1.${service}/${rpc}`;

/** The permission path (method POST) of an upload route: `/api/v1/upload/<kind>`. */
export const uploadPermissionPath = (kind: string) => `/api/v1/upload/${kind}`;

export interface PermissionGroupDef {
  /** gRPC service name (`api.v1.DocumentAPI`), or `upload` for the upload routes. */
  key: string;
  label: string;
  /** The RPC whose permission unlocks `pages`; null for the upload group. */
  listMethod: string | null;
  pages: string[];
}

export interface PermissionChild {
  id: number;
  label: string;
  path: string;
  method: string;
}

export interface PermissionTreeNode {
  /** Id of the group's list permission when it is among the rows, else 0. */
  id: number;
  key: string;
  label: string;
  pages: string[];
  children: PermissionChild[];
}

const group = (service: string, label: string, listMethod: string, pages: string[]): PermissionGroupDef => ({
  key: `api.v1.${service}`,
  label,
  listMethod,
  pages,
});

const CONFIG_PAGES = [
  'system',
  'display',
  'footer',
  'security',
  'converter',
  'download',
  'score',
  'email',
  'captcha',
].map((s) => `/admin/config/${s}`);

/**
 * The groups of docs/product.md §3 plus NavigationAPI and AdvertisementAPI of the contract, in the
 * order the permission tree shows them. Pages are those of docs/moredoc.md §11,
 * plus ours for what docs/product.md adds (see shared/README.md, "Pages chosen").
 */
export const permissionGroups: readonly PermissionGroupDef[] = [
  group('DocumentAPI', '文档管理', 'ListDocument', [
    '/admin/document',
    '/admin/document/list',
    '/admin/document/upload',
  ]),
  group('RecycleAPI', '回收站管理', 'ListRecycleDocument', ['/admin/document', '/admin/document/recycle']),
  group('SearchRecordAPI', '搜索记录管理', 'ListSearchRecord', ['/admin/document', '/admin/document/searchrecord']),
  group('LanguageAPI', '行业管理', 'ListLanguage', ['/admin/document', '/admin/document/language']),
  group('CategoryAPI', '分类管理', 'ListCategory', [
    '/admin/document',
    '/admin/document/category',
    '/admin/article/category',
  ]),
  group('UserAPI', '用户管理', 'ListUser', ['/admin/user', '/admin/user/list', '/admin/user/sms']),
  group('UserVipAPI', '会员管理', 'ListUserVip', ['/admin/user', '/admin/user/vip']),
  group('OrderAPI', '订单管理', 'ListOrder', ['/admin/order']),
  group('FriendlinkAPI', '友链管理', 'ListFriendlink', ['/admin/friendlink']),
  group('AttachmentAPI', '附件管理', 'ListAttachment', ['/admin/attachment']),
  group('ReportAPI', '举报管理', 'ListReport', ['/admin/biz', '/admin/report']),
  group('FeedbackAPI', '意见反馈', 'ListFeedback', ['/admin/feedback']),
  group('BannerAPI', '轮播图管理', 'ListBanner', ['/admin/banner']),
  group('GroupAPI', '角色管理', 'ListGroup', ['/admin/user', '/admin/user/group']),
  group('PermissionAPI', '权限管理', 'ListPermission', ['/admin/user', '/admin/user/permission']),
  group('ConfigAPI', '系统设置', 'ListConfig', [
    '/admin/config',
    ...CONFIG_PAGES,
    '/admin/config/pay',
    '/admin/config/vip',
    '/admin/config/oauth',
    '/admin/config/sms',
  ]),
  group('ArticleAPI', '文章管理', 'ListArticle', [
    '/admin/article',
    '/admin/article/set',
    '/admin/article/list',
    '/admin/article/recycle',
  ]),
  group('CommentAPI', '评论管理', 'ListComment', ['/admin/biz', '/admin/comment']),
  group('PunishmentAPI', '处罚管理', 'ListPunishment', ['/admin/user/punishment']),
  group('NavigationAPI', '导航管理', 'ListNavigation', ['/admin/navigation']),
  group('AdvertisementAPI', '广告管理', 'ListAdvertisement', ['/admin/biz', '/admin/advertisement']),
  { key: UPLOAD_GROUP_KEY, label: '上传管理', listMethod: null, pages: [] },
];

const groupByKey = new Map(permissionGroups.map((g) => [g.key, g]));

function isGrpc(perm: Permission): boolean {
  const method = (perm.method ?? '').toUpperCase();
  // Rows with an empty method match gRPC paths too (docs/moredoc.md §11).
  return method === 'GRPC' || (method === '' && (perm.path ?? '').startsWith('/api.v1.'));
}

/**
 * The group a permission row belongs to and its leaf name: `/api.v1.DocumentAPI/ListDocument`
 * → `api.v1.DocumentAPI`, `ListDocument`; `/api/v1/upload/banner` → `upload`, `banner`.
 * Undefined for a row whose path has no group segment.
 */
export function permissionGroupKey(perm: Permission): { key: string; leaf: string } | undefined {
  const parts = (perm.path ?? '').split('/');
  const [key, leaf] = isGrpc(perm) ? [parts[1], parts[2]] : [parts[3], parts[4]];
  return key ? { key, leaf: leaf ?? '' } : undefined;
}

/**
 * Groups the rows by service into the tree the role-permission dialog shows (moredoc-web
 * `permissionsToTree`): a node's id is the id of its list permission (checking the node
 * grants it), 0 when that row is absent or the group has none. Known groups come in the
 * order of `permissionGroups`, unknown ones after them, labelled with their key.
 */
export function permissionsToTree(perms: readonly Permission[]): PermissionTreeNode[] {
  const nodes = new Map<string, PermissionTreeNode>();
  for (const perm of perms) {
    const where = permissionGroupKey(perm);
    if (!where) continue;
    let node = nodes.get(where.key);
    if (!node) {
      const def = groupByKey.get(where.key);
      node = { id: 0, key: where.key, label: def?.label ?? where.key, pages: [...(def?.pages ?? [])], children: [] };
      nodes.set(where.key, node);
    }
    const id = perm.id ?? 0;
    const path = perm.path ?? '';
    node.children.push({ id, label: perm.title || path, path, method: perm.method ?? '' });
    if (id > 0 && groupByKey.get(where.key)?.listMethod === where.leaf) node.id = id;
  }
  const rank = (key: string) => {
    const index = permissionGroups.findIndex((g) => g.key === key);
    return index < 0 ? permissionGroups.length : index;
  };
  // Array.prototype.sort is stable: unknown groups keep their order of appearance.
  return [...nodes.values()].sort((a, b) => rank(a.key) - rank(b.key));
}

/** allowPages (docs/product.md §4): the pages of every group whose list permission is held. */
export function allowPagesFrom(perms: readonly Permission[]): string[] {
  const pages = new Set<string>();
  for (const node of permissionsToTree(perms)) {
    if (node.id > 0) for (const page of node.pages) pages.add(page);
  }
  return [...pages];
}

/**
 * Pages a group's list permission opens that show nothing but an explanation without one of their
 * own permissions (短信管理, ours: its log and its counters). The page stays open (a link to it
 * explains), but the admin menu and the dashboard's shortcuts do not offer it.
 */
const PAGE_OWN_PERMISSIONS: Readonly<Record<string, readonly string[]>> = {
  '/admin/user/sms': [grpcPermissionPath('UserAPI', 'ListSmsLog'), grpcPermissionPath('UserAPI', 'GetSmsStats')],
};

/** The permission paths of which a page of `allowPages` needs one besides its group's list permission. */
export function pageOwnPermissions(page: string): readonly string[] {
  return PAGE_OWN_PERMISSIONS[page] ?? [];
}

/**
 * The pages of `allowPages` the admin menu and the dashboard's shortcuts offer: all but those of
 * `PAGE_OWN_PERMISSIONS` of which the user `holds` none.
 */
export function offeredAdminPages(allowPages: readonly string[], holds: (path: string) => boolean): string[] {
  return allowPages.filter((page) => PAGE_OWN_PERMISSIONS[page]?.some(holds) ?? true);
}

/** A user is an admin if any allowed page is an admin page (docs/product.md §4). */
export function isAdmin(allowPages: readonly string[]): boolean {
  return allowPages.some((page) => page.toLowerCase().startsWith('/admin'));
}
